"""Type stubs of the native module ``microagg._core`` (PyO3). Users call the wrappers in
``microagg``; these take plain values and return JSON text plus int64 label bytes."""

from os import PathLike
from typing import Any, List, Optional, Tuple, Union

__version__: str

class Data:
    """Records to microaggregate: the library's standardised instance."""

    @staticmethod
    def from_array(raw: bytes, n: int, d: int, columns: List[str], name: str, missing: bool = False) -> Data:
        """From n*d float64 values (native byte order, row-major); sha256 of the values.
        With ``missing`` a NaN is a missing cell (``--missing ignore``), else an error."""
    @staticmethod
    def load(
        spec: str,
        columns: Optional[str] = None,
        delimiter: str = ",",
        missing: bool = False,
        weights: Optional[str] = None,
    ) -> Data:
        """As the CLI's ``--data SPEC --columns COLUMNS --delimiter DELIMITER``, with
        ``--missing ignore`` (``missing``) and ``--weights COLUMN`` (``weights``)."""
    def with_weights(self, column: str, values: List[float]) -> Data:
        """The same records with one sampling weight per record (finite, > 0)."""
    @property
    def weights(self) -> Optional[List[float]]: ...
    @property
    def has_missing(self) -> bool: ...
    @property
    def n(self) -> int: ...
    @property
    def d(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def source(self) -> str:
        """The file path (CSV, CASC id resolved) or generator spec."""
    @property
    def columns(self) -> List[str]: ...
    @property
    def sha256(self) -> str:
        """sha256 of the source file's bytes, or of the values (arrays, generators)."""
    @property
    def sst(self) -> float:
        """Total sum of squares of the z-scored data (about n * d)."""
    def raw(self) -> bytes:
        """The original values (n*d float64, native byte order, row-major)."""

def run(
    data: Data,
    k: int,
    method: Union[str, List[Any]],
    seed: int,
    time_limit: Optional[float],
    max_steps: Optional[int],
    bound_name: Optional[str],
    params: List[str],
    trace: bool,
    trace_interval: float,
    release: bool = False,
    aggregate: Optional[str] = None,
    missing_release: str = "keep",
    measures: bool = False,
    progress: bool = False,
) -> Tuple[str, bytes, Optional[bytes]]:
    """(record JSON, int64 labels, released n*d float64 values or None) of a pipeline run;
    ``method`` a pipeline string or a list of stages (names, ``microagg.Ils``,
    ``microagg.Refiner`` objects). Ctrl-C returns the best so far; an exception raised by
    a Python part is re-raised with ``_microagg_best = (labels bytes, sse)`` or None."""

def bound(
    data: Data,
    k: int,
    method: str,
    time_limit: Optional[float],
    params: str = "{}",
    progress: bool = False,
) -> str:
    """JSON of the library's bound outcome."""

def check(data: Data, k: int, labels: bytes) -> str:
    """JSON of the library's check report of int64 ``labels``."""

def masked(data: Data, labels: bytes) -> bytes:
    """n*d float64 group means (original units) of int64 ``labels``."""

def solve_exact(data: Data, k: int, method: str, time_limit: Optional[float]) -> Tuple[str, bytes]:
    """(solution JSON, int64 labels) of the exact solver."""

def methods() -> str:
    """JSON list of the method registry."""

def experiment(
    suite: str, out: Optional[str | PathLike[str]], jobs: int, resume: bool, progress: bool
) -> Tuple[str, bool]:
    """(records JSON list, interrupted) of a suite file."""

def figure_style(size: str, font_pt: Optional[float] = None) -> str:
    """JSON of a figure style preset (width_in, font_pt, line_pt, marker_pt, palette)."""

def report(
    dir: str | PathLike[str],
    format: str,
    columns: Optional[List[str]],
    size: str,
    font_pt: Optional[float],
    title: bool,
) -> str:
    """JSON of ``microagg report DIR``: table, figures, figures_error, notes."""

class PartitionView:
    """The partition seen by a Python part during one call (raises RuntimeError when kept
    past it). O(d): delta_shift, delta_swap, apply_shift, apply_swap, centroid, row."""

    @property
    def k(self) -> int: ...
    @property
    def n(self) -> int: ...
    @property
    def d(self) -> int: ...
    @property
    def progress(self) -> Optional[float]: ...
    def group_of(self, r: int) -> int: ...
    def size(self, g: int) -> int: ...
    def members(self, g: int) -> List[int]: ...
    def centroid(self, g: int) -> List[float]: ...
    def row(self, r: int) -> List[float]: ...
    def sse(self) -> float: ...
    def group_sse(self, g: int) -> float: ...
    def slots(self) -> int: ...
    def num_groups(self) -> int: ...
    def labels(self) -> List[int]: ...
    def delta_shift(self, r: int, g: int) -> float: ...
    def delta_swap(self, r: int, s: int) -> float: ...
    def neighbours(self, r: int) -> List[int]: ...
    def apply_shift(self, r: int, g: int) -> None: ...
    def apply_swap(self, r: int, s: int) -> None: ...
    def new_group(self) -> int: ...
    def undo(self) -> None: ...
    def stop_requested(self) -> bool: ...

class Rng:
    """The stage's random stream during one call (the draws of the Rust parts)."""

    def random(self) -> float: ...
    def integers(self, low: int, high: int) -> int: ...
    def random_bool(self, p: float) -> bool: ...

def _install_test_twin() -> None:
    """Register the Rust twin `test_chain_kick` of the tests' Python chain kick."""
