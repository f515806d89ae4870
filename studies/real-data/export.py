"""Export numeric data sets shipped with scikit-learn and statsmodels as CSV files.

The study `studies/study-auto-real-data.txt` runs `microagg bound --method auto` on them:
data nobody tuned the bounds for. The files are not committed; this script writes them:

    python3 -m venv venv && venv/bin/pip install scikit-learn statsmodels pandas
    venv/bin/python studies/real-data/export.py OUT_DIR

Each file holds the numeric attributes with a header row, in the packages' row order.
Constant columns are dropped (their z-score is undefined). No row is dropped; the
script stops if a cell is missing.
"""

import sys
from pathlib import Path

import statsmodels.api as sm
from sklearn import datasets


def frames():
    for name, load in [
        ("wine", datasets.load_wine),
        ("diabetes", datasets.load_diabetes),
        ("breast_cancer", datasets.load_breast_cancer),
        ("digits", datasets.load_digits),
    ]:
        yield name, load(as_frame=True).data
    yield "fair", sm.datasets.fair.load_pandas().data
    yield "randhie", sm.datasets.randhie.load_pandas().data


def main(out):
    out.mkdir(parents=True, exist_ok=True)
    for name, frame in frames():
        frame = frame.astype(float)
        if frame.isna().any().any():
            sys.exit(f"{name}: missing cells")
        constant = [c for c in frame.columns if frame[c].nunique() == 1]
        frame = frame.drop(columns=constant)
        path = out / f"{name}.csv"
        frame.to_csv(path, index=False, float_format="%.17g")
        print(f"{path}: {frame.shape[0]} rows, {frame.shape[1]} columns"
              f" ({len(constant)} constant dropped)")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "real-data"))
