"""John and Langley's kernel density estimate of one numeric attribute, as Weka 3.6 computes it.

John and Langley (1995) replace the one normal of Gaussian naive Bayes by one normal kernel
per training value. Weka 3.6's ``weka.estimators.KernelEstimator``, which ``NaiveBayes -K``
uses, fixes the details this module reproduces (read from Weka 3.6.14's source and bytecode;
none of its code is used):

- **precision** ``h`` of an attribute (:func:`weka_precision`): the mean gap between
  consecutive distinct non-missing training values of all classes, summed in ascending order
  (0.01 when there is only one distinct value, at least ``1e-6``);
- **rounding**: a training value ``x`` is kept as ``rint(x / h) * h``; equal rounded values
  are one kernel with their count as weight;
- **bandwidth** of a class's estimate: ``max(range / sqrt(n), h / 6)``, ``range`` the spread
  of its rounded values and ``n`` their number (``h / 6`` when the range is 0);
- **probability** of a value ``x``: not a density but the mass of ``[x - h/2, x + h/2]``,
  ``sum_i w_i [Phi((v_i - x + h/2) / sd) - Phi((v_i - x - h/2) / sd)] / n``;
- **truncation**: Weka sums the kernels outward from ``x``, first the kernels at or above
  ``x`` then those below, and stops a side at the first kernel ``i`` whose mass times the
  weight not yet summed is below 1 % of the sum so far (``MAX_ERROR = 0.01``);
- an estimate with **no values** (a class without training rows, or whose values are all
  missing) gives ``Phi((x + h/2) / sd0) - Phi((x - h/2) / sd0)``, ``sd0 = h / 6``: one
  kernel at 0.

Two evaluations, both vectorised over the queries:

- **Weka's sum** (:func:`weka_sums`), kernel by kernel in Weka's order with its stopping
  rule and its arithmetic (``Phi(z_upper) - Phi(z_lower)``, scipy's ``ndtr`` being the same
  Cephes function as Weka's ``Statistics.normalProbability``): the same numbers as Weka's,
  at Weka's cost, the number of kernels within about 4.5 bandwidths of ``x``;
- **every kernel** (:class:`Lattice`), for estimates where that number is large (dense
  data): the rounded values lie on a grid of step ``h``, so the sum over all kernels is a
  convolution of the grid's weights with the kernel; its value and its first
  :data:`TAYLOR_ORDERS` - 1 derivatives are convolved by FFT at fit time on a lattice of grid
  points ``step`` apart, and a query is the Taylor polynomial from its nearest lattice point
  (at most 0.1 bandwidth away); it equals the direct sum of every kernel to 1e-8 of itself
  (tested). It is the sum of every kernel, without Weka's 1 % truncation: Weka's sums are
  within 0.1 % of it on 5 000 normal values (tested), and the class probabilities of
  ``benchmarks/bench_continuous.py``'s 10^5 x 20 set within 6e-5 of Weka's. A query whose
  sum is below ``1e-6 r n`` there (``r`` the grid step in bandwidths; far in a tail, where
  the FFT's absolute rounding would matter) is summed Weka's way.

:func:`kernel_estimate` chooses: Weka's sum unless some ``2 * WINDOW`` bandwidths hold more
than ``exact_limit`` kernels and the grid step is at most ``MAX_STEP`` bandwidths.
"""
from __future__ import annotations

import math
from typing import NamedTuple
from dataclasses import dataclass, replace

import numpy as np
from scipy import fft
from scipy.special import ndtr

#: Weka's ``KernelEstimator.MAX_ERROR``: a side of the sum stops below this share.
MAX_ERROR = 0.01
#: ``NaiveBayes.DEFAULT_NUM_PRECISION``: the precision of an attribute with one distinct value.
DEFAULT_PRECISION = 0.01
#: ``weka.core.Utils.SMALL``: the smallest precision ``KernelEstimator`` accepts.
SMALLEST_PRECISION = 1e-6
#: Bandwidths either side of a kernel over which :func:`window_size` counts kernels.
WINDOW = 5.0
#: The lattice path needs a grid step of at most this many bandwidths.
MAX_STEP = 0.05
#: Orders of the Taylor polynomial (value and derivatives) kept at each lattice point.
TAYLOR_ORDERS = 10
#: Half the lattice spacing, in bandwidths: the largest Taylor step.
TAYLOR_REACH = 0.1
#: Bandwidths beyond which a kernel's mass is below 1e-21 of its peak and is left out.
KERNEL_REACH = 10.0
#: A lattice sum below this times ``r n`` is recomputed Weka's way (FFT rounding).
LATTICE_FLOOR = 1e-6
# Query-by-kernel cells evaluated at once by weka_sums (memory bound).
_BLOCK_CELLS = 1 << 20


def weka_precision(values: np.ndarray) -> float:
    """Weka's precision of a numeric attribute from its non-missing training values (any
    order): the sum of the gaps between consecutive distinct values, added in ascending
    order as Weka adds them, over their number; 0.01 for a single distinct value."""
    distinct = np.unique(values)
    if distinct.size < 2:
        return DEFAULT_PRECISION
    # cumsum adds left to right, as Weka's loop does (np.sum's pairwise order differs); a
    # range beyond the largest float gives inf, which the classifier refuses.
    with np.errstate(over="ignore"):
        return float(np.cumsum(np.diff(distinct))[-1]) / (distinct.size - 1)


@dataclass(frozen=True)
class Lattice:
    """The sum of every kernel of an estimate, ready for Taylor evaluation.

    ``coefficients[q, n]`` is the ``n``-th derivative (in grid units) of the kernel sum at
    grid index ``origin + step * q``, divided by ``n!``.
    """

    origin: int
    step: int
    coefficients: np.ndarray
    first_index: float  # the grid index of value 0 is -first_index: index = x / h - first_index
    floor: float


@dataclass(frozen=True)
class KernelEstimate:
    """One class's kernel estimate of one attribute (see the module docstring)."""

    values: np.ndarray     # distinct rounded values, ascending
    weights: np.ndarray    # their counts
    total: float           # the number of values
    precision: float
    sd: float
    window: int = 0        # window_size(values, sd)
    lattice: Lattice | None = None

    @property
    def cumulative(self) -> np.ndarray:
        """``0`` then the running total of ``weights``: integer counts, so exact."""
        return np.concatenate([[0.0], np.cumsum(self.weights)])

    @property
    def method(self) -> str:
        """``"weka"`` (Weka's truncated sum), ``"lattice"`` (every kernel) or ``"empty"``."""
        if self.total == 0:
            return "empty"
        return "weka" if self.lattice is None else "lattice"


def kernel_estimate(values: np.ndarray, precision: float, exact_limit: int) -> KernelEstimate:
    """The estimate of the non-missing ``values`` of one class, with the attribute's Weka
    ``precision``; summed over every kernel when windows hold more than ``exact_limit``."""
    h = max(float(precision), SMALLEST_PRECISION)
    rounded = np.rint(values / h) * h
    distinct, counts = np.unique(rounded, return_counts=True)
    total = float(values.size)
    sd = h / 6.0
    if distinct.size > 1:
        sd = max(float(distinct[-1] - distinct[0]) / math.sqrt(total), sd)
    weights = counts.astype(np.float64)
    window = window_size(distinct, sd)
    estimate = KernelEstimate(distinct, weights, total, h, sd, window)
    if h / sd > MAX_STEP or window <= exact_limit:
        return estimate
    return replace(estimate, lattice=_lattice(estimate))


def window_size(values: np.ndarray, sd: float) -> int:
    """The most kernels that lie within ``WINDOW`` bandwidths either side of one point."""
    if values.size == 0:
        return 0
    ends = np.searchsorted(values, values + 2.0 * WINDOW * sd, side="right")
    return int(np.max(ends - np.arange(values.size)))


def probabilities(estimate: KernelEstimate, x: np.ndarray) -> np.ndarray:
    """Weka's ``getProbability`` of each value of ``x`` (finite floats) under ``estimate``."""
    # Real data repeat their values (letter: 16 per attribute in 10 000 rows): each
    # distinct value is summed once.
    x, back = np.unique(np.asarray(x, dtype=np.float64), return_inverse=True)
    return _probabilities(estimate, x)[back]


def _probabilities(estimate: KernelEstimate, x: np.ndarray) -> np.ndarray:
    half = estimate.precision / 2.0
    if estimate.total == 0:
        sd0 = estimate.sd
        return ndtr((x + half) / sd0) - ndtr((x - half) / sd0)
    if estimate.lattice is None:
        return weka_sums(estimate, x) / estimate.total
    out = lattice_sums(estimate.lattice, x / estimate.precision)
    tail = ~(out >= estimate.lattice.floor)
    if tail.any():
        out[tail] = weka_sums(estimate, x[tail])
    return out / estimate.total


def weka_sums(estimate: KernelEstimate, x: np.ndarray) -> np.ndarray:
    """Weka's truncated kernel sum at each ``x`` (not yet divided by the total weight):
    the kernels from the first at or above ``x`` upward, then from the one below it
    downward, each side stopped by Weka's rule, added in Weka's order."""
    values = estimate.values
    start = np.searchsorted(values, x, side="left")
    zero = np.zeros(x.size)
    up = _one_side(estimate, _Side(x, start, values.size - start, +1), _Running(zero, zero))
    return _one_side(estimate, _Side(x, start - 1, start, -1), up).sums


class _Side(NamedTuple):
    """One side of the sum for every query ``x``: from kernel index ``first`` in direction
    ``step`` (+1 upward, -1 downward), at most ``available`` kernels."""

    x: np.ndarray
    first: np.ndarray
    available: np.ndarray
    step: int


class _Running(NamedTuple):
    """The running sums of each query and the weight of the kernels they hold."""

    sums: np.ndarray
    summed: np.ndarray


def _one_side(estimate, side: _Side, running: _Running) -> _Running:
    """One side of :func:`weka_sums`, continuing ``running``. Windows of kernels grow
    (doubling) for the queries that have not stopped yet; the first is about as wide as a
    side's sum usually runs (4.5 of the 10 bandwidths of ``window``)."""
    running = _Running(running.sums.copy(), running.summed.copy())
    available = side.available
    done = np.zeros(side.x.size, dtype=np.int64)  # kernels already added per query
    active = np.flatnonzero(available > 0)
    width = max(8, estimate.window // 2)
    while active.size:
        width = min(width, int(available[active].max() - done[active].min()))
        rows = max(1, _BLOCK_CELLS // width)
        still = []
        for lo in range(0, active.size, rows):
            block = active[lo:lo + rows]
            stopped = _window(estimate, side, done[block], width, running, block)
            done[block] += width
            still.append(block[~stopped & (done[block] < available[block])])
        active = np.concatenate(still)
        width *= 2
    return running


def _window(estimate, side: _Side, done, width, running: _Running, block) -> np.ndarray:
    """Add up to ``width`` kernels to each query of ``block`` of ``side`` (``done`` of them
    already added), updating ``running`` in place up to the stopping kernel; return which
    queries stopped."""
    values, weights, cumulative = estimate.values, estimate.weights, estimate.cumulative
    step, sums, summed = side.step, running.sums, running.summed
    x, first = side.x[block], side.first[block] + step * done
    left = side.available[block] - done
    offsets = np.arange(width)
    valid = offsets[None, :] < left[:, None]
    index = np.where(valid, first[:, None] + step * offsets[None, :], first[:, None])
    half = estimate.precision / 2.0
    delta = values[index] - x[:, None]
    # Weka's own arithmetic: z bounds as it computes them, then Phi(upper) - Phi(lower).
    mass = ndtr((delta + half) / estimate.sd) - ndtr((delta - half) / estimate.sd)
    mass = np.where(valid, mass, 0.0)
    # Prepending the running totals keeps Weka's left-to-right order of additions.
    totals = np.cumsum(np.column_stack([sums[block], mass * weights[index]]), axis=1)[:, 1:]
    # The weight summed so far, from the running counts (integers: exact, as Weka's sum).
    if step > 0:
        weight = cumulative[index + 1] - cumulative[first][:, None]
    else:
        weight = cumulative[first + 1][:, None] - cumulative[index]
    weight += summed[block][:, None]
    stop = valid & (mass * (estimate.total - weight) < totals * MAX_ERROR)
    stopped = stop.any(axis=1)
    last = np.where(stopped, np.argmax(stop, axis=1), np.minimum(left, width) - 1)
    rows = np.arange(block.size)
    sums[block] = totals[rows, last]
    summed[block] = weight[rows, last]
    return stopped


def _lattice(estimate: KernelEstimate) -> Lattice:
    """The Taylor coefficients of the sum of every kernel, by FFT (see the module docstring)."""
    h, sd = estimate.precision, estimate.sd
    r = h / sd  # the grid step in bandwidths
    index = np.rint(estimate.values / h)
    first = float(index[0])
    grid = np.zeros(int(index[-1] - first) + 1)
    grid[(index - first).astype(np.int64)] = estimate.weights
    step = max(1, int(2.0 * TAYLOR_REACH / r))
    reach = int(math.ceil(KERNEL_REACH / r)) + step
    t = np.arange(-reach, reach + 1, dtype=np.float64)
    kernels = _kernel_derivatives(t, r)
    size = fft.next_fast_len(grid.size + 2 * reach, real=True)
    spectrum = fft.rfft(grid, size)
    origin = -reach
    picks = np.arange(0, grid.size + 2 * reach, step)
    coefficients = np.empty((picks.size, TAYLOR_ORDERS))
    for n in range(TAYLOR_ORDERS):
        # The n-th derivative is odd or even as n; the convolution flips it: sign (-1)^n.
        flipped = kernels[n] * (-1.0) ** n
        conv = fft.irfft(spectrum * fft.rfft(flipped, size), size)
        coefficients[:, n] = conv[picks] / math.factorial(n)
    floor = LATTICE_FLOOR * r * estimate.total
    return Lattice(origin, step, coefficients, first, floor)


def _kernel_derivatives(t: np.ndarray, r: float) -> list[np.ndarray]:
    """``G^(n)(t)`` for ``n < TAYLOR_ORDERS``, ``G(t) = Phi((t + 1/2) r) - Phi((t - 1/2) r)``
    (a kernel's mass at grid offset ``t``; derivatives in grid units)."""
    upper, lower = (t + 0.5) * r, (t - 0.5) * r
    far = np.abs(t)
    # G(t) = G(-t); on the upper tail both Phi are near 1: take the mirrored lower tail.
    out = [ndtr(0.5 * r - far * r) - ndtr(-(far + 0.5) * r)]
    # Phi^(n)(z) = (-1)^(n-1) He_{n-1}(z) phi(z), He by their recurrence.
    pdf_u, pdf_l = np.exp(-0.5 * upper ** 2), np.exp(-0.5 * lower ** 2)
    he_u = [np.ones_like(t), upper]
    he_l = [np.ones_like(t), lower]
    for k in range(1, TAYLOR_ORDERS - 1):
        he_u.append(upper * he_u[k] - k * he_u[k - 1])
        he_l.append(lower * he_l[k] - k * he_l[k - 1])
    scale = 1.0 / math.sqrt(2.0 * math.pi)
    for n in range(1, TAYLOR_ORDERS):
        sign = (-1.0) ** (n - 1)
        out.append(sign * scale * r ** n * (he_u[n - 1] * pdf_u - he_l[n - 1] * pdf_l))
    return out


def lattice_sums(lattice: Lattice, u: np.ndarray) -> np.ndarray:
    """The sum of every kernel at grid coordinates ``u`` (``x / h``), by the Taylor
    polynomial from the nearest lattice point; 0 beyond the lattice."""
    at = u - lattice.first_index - lattice.origin
    q = np.rint(at / lattice.step)
    inside = (q >= 0) & (q < lattice.coefficients.shape[0])
    out = np.zeros(u.size)
    if not inside.any():
        return out
    qi = q[inside].astype(np.int64)
    f = at[inside] - qi * lattice.step
    coef = lattice.coefficients[qi]
    # Horner in -f: sum_n c_n (-f)^n, the kernel sum at k - (m + f).
    acc = coef[:, -1].copy()
    for n in range(TAYLOR_ORDERS - 2, -1, -1):
        acc = acc * (-f) + coef[:, n]
    out[inside] = acc
    return out
