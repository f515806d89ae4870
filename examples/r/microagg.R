# microagg from R: the workbench's command line through system2(), the labels, the run
# record and the released file read back. Needs R (>= 3.5) and the jsonlite package; the
# `microagg` binary on the PATH or named by the MICROAGG environment variable
# (cargo build --release gives target/release/microagg).
#
#   source("examples/r/microagg.R")
#   r <- microagg_run(df, k = 3, method = "mdav", columns = c("SALES", "NET.PROFIT"))
#   r$labels     # group label (0-based) of every row of df, in row order
#   r$record$il  # the run record of `microagg run --json` as a list (sse, il, groups, ...)
#   r$masked     # df with the chosen columns replaced by the group aggregates
#
# Run as a script (Rscript examples/r/microagg.R [DIR]) it reproduces the published MDAV
# IL of the CASC file Tarragona (k = 3: 16.9326 %) from R, and recomputes that IL in R from
# the released values; with sdcMicro installed it also runs sdcMicro's MDAV on the same data.

microagg_run <- function(x, k, method = "mdav", columns = NULL, seed = 0,
                         aggregate = "mean", extra = character(),
                         bin = Sys.getenv("MICROAGG", "microagg")) {
  stopifnot(is.data.frame(x), nrow(x) >= k)
  if (is.null(columns)) columns <- names(x)[vapply(x, is.numeric, logical(1))]
  dir <- tempfile("microagg")
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE))
  data <- file.path(dir, "data.csv")
  labels <- file.path(dir, "labels.txt")
  masked <- file.path(dir, "masked.csv")
  errors <- file.path(dir, "stderr.txt")
  # Numbers with 17 significant digits, so that every double reads back as itself
  # (write.csv alone keeps 15); text columns quoted, numbers not.
  num <- vapply(x, is.numeric, logical(1))
  out <- x
  out[num] <- lapply(x[num], function(v) ifelse(is.na(v), "", formatC(v, digits = 17, format = "g")))
  utils::write.csv(out, data, row.names = FALSE, na = "", quote = which(!num))
  args <- c("run", "--data", data, "--columns", paste(columns, collapse = ","),
            "--k", k, "--method", method, "--seed", format(seed, scientific = FALSE),
            "--aggregate", aggregate, "--labels-out", labels, "--masked-out", masked,
            "--row-order", "input", "--json", extra)
  stdout <- suppressWarnings(system2(bin, shQuote(args), stdout = TRUE, stderr = errors))
  status <- attr(stdout, "status")
  if (!is.null(status) && status != 0) {
    stop("microagg failed (exit ", status, "): ", paste(readLines(errors), collapse = "\n"),
         call. = FALSE)
  }
  record <- jsonlite::fromJSON(paste(stdout, collapse = "\n"), simplifyVector = TRUE)
  # Input order (--row-order input): the released columns go back into x row for row; the
  # caller's frame is the office's own, to be shuffled before it leaves the office.
  released <- utils::read.csv(masked, check.names = FALSE, stringsAsFactors = FALSE)
  result <- x
  result[columns] <- released[columns]
  list(labels = scan(labels, what = integer(), quiet = TRUE), record = record, masked = result)
}

# IL = 100 SSE / SST of released values y against x on the given columns, each column
# z-scored with the population standard deviation of x (the workbench's definition).
information_loss <- function(x, y, columns) {
  sse <- 0
  sst <- 0
  for (c in columns) {
    s <- sqrt(mean((x[[c]] - mean(x[[c]]))^2))
    sse <- sse + sum(((x[[c]] - y[[c]]) / s)^2)
    sst <- sst + sum(((x[[c]] - mean(x[[c]])) / s)^2)
  }
  100 * sse / sst
}

if (sys.nframe() == 0) {
  args <- commandArgs(trailingOnly = TRUE)
  dir <- if (length(args) > 0) args[1] else Sys.getenv("MICROAGG_DATA", "../shared/instances")
  tarragona <- utils::read.csv(file.path(dir, "tarragona.csv"), check.names = FALSE)
  r <- microagg_run(tarragona, k = 3, method = "mdav")
  cat(sprintf("microagg MDAV k=3 on Tarragona: IL %.4f %% (record), %.4f %% (recomputed in R), %d groups, published 16.9326 %%\n",
              r$record$il, information_loss(tarragona, r$masked, names(tarragona)),
              length(unique(r$labels))))
  if (requireNamespace("sdcMicro", quietly = TRUE)) {
    m <- sdcMicro::microaggregation(tarragona, method = "mdav", aggr = 3)
    cat(sprintf("sdcMicro MDAV k=3 on Tarragona: IL %.4f %% (recomputed in R)\n",
                information_loss(tarragona, m$mx, names(tarragona))))
  } else {
    cat("sdcMicro is not installed: its MDAV was not run\n")
  }
}
