#!/usr/bin/env bash
# Byte-identity check of the command line across a refactor (issue 19).
#
#   tests/scripts/cli_identity.sh BINARY OUTDIR
#
# runs a fixed set of representative commands with BINARY and writes each command's
# stdout, exit status and written files into OUTDIR; run it with the binaries before and
# after a change and compare with `diff -r OUTDIR1 OUTDIR2`. Wall-clock figures (seconds,
# version stamps) are masked; everything else must match byte for byte. A few seconds of
# CPU; needs ../shared/instances (Tarragona) next to the checkout.
set -u
bin=$1
out=$2
rm -rf "$out" && mkdir -p "$out"
# a fixed folder: its path appears in the outputs
work=/tmp/microagg-cli-identity-work
rm -rf "$work" && mkdir -p "$work"
mask() {
  # Wall-clock figures and the commit stamp: "seconds":1.23 (and *_seconds, the exact
  # phases), "1.234 s" in text, CSV columns named *seconds* or git_commit.
  python3 -c '
import csv, io, re, sys
text = sys.stdin.read()
text = re.sub(r"\"([a-z_]*seconds|pricing|lp|mip)\":[-0-9.e+]+", r"\"\1\":S", text)
text = re.sub(r"[0-9]+\.[0-9]+ s\b", "S s", text)
text = re.sub(r"\"git_commit\":\"[^\"]*\"", "\"git_commit\":G", text)
rows = list(csv.reader(io.StringIO(text))) if text.count(",") > 3 else []
if rows and any("seconds" in h or h == "git_commit" for h in rows[0]) and len({len(r) for r in rows}) == 1:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    hide = [i for i, h in enumerate(rows[0]) if "seconds" in h or h == "git_commit"]
    for r in rows:
        w.writerow([("X" if i in hide and r is not rows[0] else v) for i, v in enumerate(r)])
    text = out.getvalue()
sys.stdout.write(text)
'
}
n=0
c() {
  n=$((n + 1))
  local tag
  tag=$(printf '%02d' "$n")
  "$bin" "$@" >"$work/stdout" 2>"$work/stderr"
  local rc=$?
  {
    echo "\$ microagg $*"
    echo "exit $rc"
    mask <"$work/stdout"
  } >"$out/$tag.out"
  # stderr: kept apart (clap's usage errors may change wording with value enums)
  mask <"$work/stderr" >"$out/$tag.err"
}
T=tarragona
c run --data $T --k 3 --method mdav --json
c run --data $T --k 3 --method mdav
c run --data $T --k 3 --method mdav+ils --seed 1 --max-steps 500 --json --labels-out "$work/ils.labels"
cp "$work/ils.labels" "$out/ils.labels"
c run --data $T --k 3 --method mdav+ils --seed 1 --max-steps 500
c run --data $T --k 5 --method vmdav --param vmdav.gamma=1.1 --masked-out "$work/masked.csv"
cp "$work/masked.csv" "$out/masked.csv"
c run --data $T --k 3 --method mdav --bound nn --json
c run --data $T --k 3 --method mdav --bound nn
c run --data $T --k 3 --method mdav+imhm --max-steps 50 --json --trace "$work/trace.jsonl"
mask <"$work/trace.jsonl" >"$out/trace.jsonl"
c run --data "uniform:n=40,d=2,seed=1" --k 3 --method mdav+sa --seed 2 --max-steps 300 --json
c run --data $T --k 3 --method mdav --strata 1 --json
c run --data $T --k 3 --method mdav --blocks 200 --part 1/2 --labels-out "$work/p1.labels"
c run --data $T --k 3 --method mdav --blocks 200 --part 2/2 --labels-out "$work/p2.labels"
c combine "$work/p1.labels" "$work/p2.labels" --out "$work/comb.labels"
cp "$work/comb.labels" "$out/comb.labels"
c check --data $T --k 3 --labels "$work/ils.labels"
c check --data $T --k 3 --labels "$work/ils.labels" --json
c check --data $T --k 4 --labels "$work/ils.labels"
c bound --data $T --k 3 --method nn
c bound --data $T --k 3 --method nn --json
c bound --data $T --k 3
c bound --data "uniform:n=40,d=2,seed=1" --k 3 --method colgen --json --certificate "$work/cert.json"
c verify-bound --data "uniform:n=40,d=2,seed=1" --k 3 --certificate "$work/cert.json"
c verify-bound --data "uniform:n=40,d=2,seed=1" --k 3 --certificate "$work/cert.json" --json
c bound --data "uniform:n=40,d=2,seed=1" --k 3 --method colgen-cuts
c bound --data "uniform:n=40,d=2,seed=1" --k 3 --method colgen --cuts 5 --json
c solve-exact --data "uniform:n=14,d=2,seed=3" --k 3 --json --labels-out "$work/ex.labels"
cp "$work/ex.labels" "$out/ex.labels"
c solve-exact --data "uniform:n=14,d=2,seed=3" --k 3 --method subset-dp
c solve-exact --data "uniform:n=24,d=2,seed=3" --k 3 --method set-partitioning --json
c list
c list --json
c experiment instances/smoke.toml --dry-run
c experiment instances/smoke.toml --out "$work/smoke" --jobs 1
cat "$work"/smoke/*.jsonl | mask >"$out/smoke-records.jsonl"
c report "$work/smoke"
c report "$work/smoke" --format csv
c report "$work/smoke" --format csv --per-run
c report "$work/smoke" --format latex
# usage errors (exit status and stdout; stderr wording may change)
c run --data $T --k 3 --method nosuch
c run --data $T --k 3 --method mdav --time-limit -1
c run --data $T --k 3 --method mdav --bound nosuch
c bound --data $T --k 3 --method nosuch
c bound --data $T --k 3 --method nn --time-limit 0
c bound --data $T --k 3 --method nn --certificate "$work/c.json"
c solve-exact --data "uniform:n=14,d=2,seed=3" --k 3 --method nosuch
c report "$work/smoke" --format nosuch
c verify-bound --data "uniform:n=40,d=2,seed=1" --k 3 --certificate "$work/cert.json" --time-limit -3
for sub in run bound verify-bound solve-exact check combine list bench demo experiment report; do
  "$bin" $sub --help >"$out/help-$sub.txt" 2>&1
done
"$bin" --help >"$out/help.txt" 2>&1
rm -rf "$work"
echo "$n commands, outputs in $out"
