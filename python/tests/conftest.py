"""Shared fixtures: the CLI binary (to compare labels with) and the CASC files.

The CLI is ``$MICROAGG_CLI`` or the workspace's ``target/release/microagg`` (CI builds it
with ``cargo test --release``; ``cargo build --release`` otherwise). The CASC files are
found as the CLI finds them (``$MICROAGG_DATA``, ``instances/data/``, ``../shared/instances``);
with ``MICROAGG_REQUIRE_DATA=1`` (CI) a missing file fails instead of skipping.
"""

import json
import os
import pathlib
import subprocess

import numpy as np
import pytest

import microagg

ROOT = pathlib.Path(__file__).resolve().parents[2]
CASC = ["tarragona", "census", "eia"]


@pytest.fixture(scope="session")
def cli():
    path = pathlib.Path(os.environ.get("MICROAGG_CLI", ROOT / "target" / "release" / "microagg"))
    if not path.exists():
        pytest.fail(f"the microagg CLI is not at {path}: run cargo build --release or set MICROAGG_CLI")
    return path


def run_cli(cli, *args, tmp_path):
    """Run the CLI from the repository root; returns (json record, labels array)."""
    labels = tmp_path / "labels.txt"
    out = subprocess.run(
        [str(cli), *args, "--labels-out", str(labels), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout), np.loadtxt(labels, dtype=np.int64)


def casc_or_skip(instance_id):
    """The CASC instance loaded as the CLI loads it, or a skip (a failure in CI)."""
    try:
        return microagg.load(instance_id)
    except microagg.DataError as e:
        if os.environ.get("MICROAGG_REQUIRE_DATA") == "1":
            pytest.fail(f"{instance_id}: {e}")
        pytest.skip(f"{instance_id} not found: {e}")


def as_array(data):
    """A loaded Data object's original values as a numpy array."""
    return np.frombuffer(data.raw(), dtype=np.float64).reshape(data.n, data.d)
