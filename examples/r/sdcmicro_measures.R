# Usage: Rscript sdcmicro_measures.R SDCMICRO_CHECKOUT ORIGINAL.csv MASKED.csv [K]
# Evaluates sdcMicro's own dRiskWORK and dUtilityWORK definitions, read from the given
# sdcMicro checkout's R/dRisk.R and R/dUtility.R (nothing of sdcMicro is copied here), on
# the columns the two CSV files share, and prints dRisk, IL1s, IL1old and eigen.
args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 3) stop("usage: sdcmicro_measures.R SDCMICRO_CHECKOUT ORIGINAL.csv MASKED.csv [K]")
definition <- function(file, name) {
  exprs <- parse(file.path(args[1], "R", file), keep.source = FALSE)
  for (e in exprs) {
    if (is.call(e) && identical(e[[1]], as.name("<-")) && identical(e[[2]], as.name(name))) {
      return(eval(e[[3]], globalenv()))
    }
  }
  stop(paste(name, "not found in", file))
}
dRiskWORK <- definition("dRisk.R", "dRiskWORK")
dUtilityWORK <- definition("dUtility.R", "dUtilityWORK")
x <- read.csv(args[2], check.names = FALSE)
xm <- read.csv(args[3], check.names = FALSE)
cols <- intersect(names(xm), names(x))
x <- x[, cols, drop = FALSE]
xm <- xm[, cols, drop = FALSE]
k <- if (length(args) >= 4) as.numeric(args[4]) else 0.05
cat(sprintf("columns %d rows %d\n", length(cols), nrow(x)))
cat(sprintf("dRisk %.15g\n", dRiskWORK(x, xm, k)))
for (m in c("IL1s", "IL1old", "eigen")) cat(sprintf("%s %.15g\n", m, dUtilityWORK(x, xm, method = m)))
