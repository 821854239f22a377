"""Tests for keyed-noise (probabilistic) anonymisation."""

from __future__ import annotations

import hashlib
import hmac
import math
import pickle
import statistics
import struct
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from safeplot.anonymize.probabilistic import add_keyed_noise, noise_sd
from safeplot.errors import DisclosureError
from safeplot.keys import SecretKey
from safeplot.policy import Policy, policy

MATERIAL = "MATERIAL-do-not-leak-7f3a9c"
KEY = SecretKey(MATERIAL, source="test")
OTHER_KEY = SecretKey("another key entirely", source="test")
POLICY = Policy()


def sample(n: int = 200, p: int | None = None, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    shape = (n,) if p is None else (n, p)
    return rng.normal(50.0, 10.0, size=shape)


def noisy(values, **kwargs):
    kwargs.setdefault("key", KEY)
    kwargs.setdefault("policy", POLICY)
    return add_keyed_noise(values, **kwargs)


# -- determinism and keying ------------------------------------------------------------


@pytest.mark.parametrize("p", [None, 1, 3])
def test_same_call_gives_identical_output(p):
    x = sample(p=p)
    out = noisy(x, q=0.5)
    assert out.shape == x.shape
    assert out.dtype == np.float64
    np.testing.assert_array_equal(out, noisy(x, q=0.5))
    np.testing.assert_array_equal(out, noisy(x.copy(), q=0.5, key=SecretKey(MATERIAL)))


def test_input_is_not_modified_and_every_value_moves():
    x = sample(p=2)
    before = x.copy()
    out = noisy(x)
    np.testing.assert_array_equal(x, before)
    assert np.all(out != x)


def test_lists_and_integers_are_accepted():
    x = [1, 5, 2, 8, 3, 9, 4]
    np.testing.assert_array_equal(noisy(x), noisy(np.asarray(x, dtype=float)))


def test_different_key_gives_different_noise():
    x = sample()
    assert np.all(noisy(x) != noisy(x, key=OTHER_KEY))


def test_renaming_a_variable_does_not_redraw_its_noise():
    # a free re-draw per name would let many renamed releases be averaged away
    x = sample()
    np.testing.assert_array_equal(noisy(x, names=["glucose"]), noisy(x, names=["bmi"]))
    np.testing.assert_array_equal(noisy(x), noisy(x, names=["glucose"]))


def test_releases_at_two_q_cannot_be_solved_for_the_raw_values():
    # x1 = x + q1*s*e and x2 = x + q2*s*e would give x = (q2*x1 - q1*x2) / (q2 - q1)
    x = sample(n=4000)
    s = x.std(ddof=1)
    r1, r2 = noisy(x, q=0.25), noisy(x, q=0.5)
    solved = (0.5 * r1 - 0.25 * r2) / 0.25
    assert np.std(solved - x) > 0.2 * s
    # the two releases share exactly the base noise at q_min = 0.25 ...
    np.testing.assert_array_equal(r1, noisy(x, q=0.25))
    # ... and the best linear combination of many releases is no better than q_min
    releases = np.array([noisy(x, q=q) for q in (0.25, 0.3, 0.5, 1.0, 2.0)])
    weights = 1 / np.array([0.25, 0.3, 0.5, 1.0, 2.0]) ** 2
    pooled = (weights[:, None] * releases).sum(0) / weights.sum()
    assert np.std(pooled - x) > 0.2 * s


@settings(max_examples=25, deadline=None)
@given(q=st.floats(0.25, 3.0), seed=st.integers(0, 2**32 - 1))
def test_noise_sd_is_q_times_sd_at_every_q(q, seed):
    x = np.random.default_rng(seed).normal(size=5000)
    noise = noisy(x, q=q) - x
    assert abs(noise.std(ddof=1) / (q * x.std(ddof=1)) - 1) < 0.1


def test_a_single_string_names_a_1d_variable():
    x = sample()
    np.testing.assert_array_equal(noisy(x, names="age"), noisy(x, names=["age"]))


@pytest.mark.parametrize("delta", [1e-6, 5.0, -1e3])
def test_changing_one_value_changes_the_noise_of_every_record(delta):
    x = sample()
    y = x.copy()
    y[0] += delta
    noise_x = noisy(x) - x
    noise_y = noisy(y) - y
    assert np.all(noise_x[1:] != noise_y[1:])


def test_changing_one_variable_leaves_the_others_noise_alone():
    x = sample(p=2)
    y = x.copy()
    y[3, 1] += 1.0
    out_x, out_y = noisy(x), noisy(y)
    np.testing.assert_array_equal(out_x[:, 0], out_y[:, 0])
    assert np.all((out_x - x)[:, 1] != (out_y - y)[:, 1])


def test_a_variable_gets_the_same_noise_alone_or_with_others():
    x = sample(n=1000, p=3)
    both = noisy(x, names=["a", "b", "c"])
    for j, name in enumerate("abc"):
        np.testing.assert_array_equal(noisy(x[:, j], names=[name]), both[:, j])


def test_adding_a_record_changes_all_noise():
    x = sample()
    y = np.append(x, 55.0)
    assert np.all((noisy(x) - x) != (noisy(y) - y)[:-1])


def _documented_stream(label, fingerprint, n):
    message = b"safeplot-noise-v2" + len(label).to_bytes(8, "big") + label + fingerprint
    digest = hmac.new(MATERIAL.encode(), message, hashlib.sha256).digest()
    return np.random.Generator(np.random.PCG64(int.from_bytes(digest, "big"))).standard_normal(n)


def documented_fingerprint(values) -> bytes:
    """The documented fingerprint, written out value by value with Python's math.

    The sorted values, each rounded to 30 significant bits (to the nearest
    multiple of ``2**(e - 30)``, ties to even, with ``e`` the value's binary
    exponent), where ``e`` is raised to that of the median of the non-zero
    absolute values (itself rounded so): small values are rounded to the
    median's step. SHA-256 of the little-endian doubles.
    """

    def round_bits(v, floor=None):
        e = math.frexp(v)[1]
        if floor is not None:
            e = max(e, floor)
        return math.ldexp(round(math.ldexp(v, 30 - e)), e - 30) + 0.0

    values = sorted(float(v) for v in values)
    floor = math.frexp(round_bits(statistics.median(abs(v) for v in values if v != 0)))[1]
    rounded = [round_bits(v, floor) for v in values]
    return hashlib.sha256(np.array(rounded, dtype="<f8").tobytes()).digest()


@pytest.mark.parametrize("q", [0.25, 0.7])
def test_seed_follows_the_documented_derivation(q):
    x = sample(n=50)
    fingerprint = documented_fingerprint(x)
    e = 0.25 * _documented_stream(b"base", fingerprint, x.size)
    if q > 0.25:
        label = b"q" + struct.pack(">d", q)
        e = e + np.sqrt(q**2 - 0.25**2) * _documented_stream(label, fingerprint, x.size)
    noise = e * np.sort(x).std(ddof=1)
    expected = np.empty_like(x)
    order = np.argsort(x, kind="stable")
    expected[order] = x[order] + noise
    np.testing.assert_array_equal(noisy(x, q=q, names=["glucose"]), expected)


def test_negative_zero_is_the_same_as_zero():
    x = np.array([0.0, 1.0, 2.5, -3.0, 4.0])
    y = x.copy()
    y[0] = -0.0
    np.testing.assert_array_equal(noisy(x), noisy(y))


# -- the same noise on every machine ----------------------------------------------------


def _noise(values, **kwargs):
    return noisy(values, **kwargs) - np.asarray(values, dtype=float)


def _ulps(x):
    """Each value moved by -2 to 2 units in the last place, as another machine might compute it."""
    steps = np.random.default_rng(11).integers(-2, 3, x.shape)
    return x + steps * np.spacing(x)


@pytest.mark.parametrize(
    "perturb",
    [
        pytest.param(lambda x: x * (1 + 1e-15), id="times-1+1e-15"),
        pytest.param(lambda x: np.nextafter(x, np.inf), id="next-up"),
        pytest.param(lambda x: np.nextafter(x, -np.inf), id="next-down"),
        pytest.param(_ulps, id="random-ulps"),
    ],
)
@pytest.mark.parametrize("p", [None, 3])
def test_last_bit_differences_give_the_same_noise(perturb, p):
    """The fingerprint and the ranks ignore the last bits, in which machines differ."""
    x = sample(n=500, p=p)
    y = perturb(x)
    assert np.any(y != x)
    # the same draws, scaled by SDs that differ in their last bits
    np.testing.assert_allclose(_noise(y), _noise(x), rtol=0, atol=1e-12 * x.std())
    np.testing.assert_allclose(noisy(y), noisy(x), rtol=1e-14, atol=0)


def test_tied_values_computed_differently_keep_their_noise():
    """A value held by many records may be one bit off for some of them, and for other records
    on another machine: the records keep their noise (they are ranked by rounded values)."""
    x = sample(n=200)
    x[:20] = x[20]
    here, there = x.copy(), x.copy()
    here[5] = np.nextafter(x[5], np.inf)
    there[7] = np.nextafter(x[7], np.inf)
    np.testing.assert_allclose(_noise(here), _noise(there), rtol=0, atol=1e-12 * x.std())


def test_leverages_computed_two_ways_get_the_same_noise():
    """Leverages from a QR decomposition and from the inverse of X'X agree to about 1e-15 but
    not bit for bit (as BLAS kernels of two machines do not): their noise is the same."""
    rng = np.random.default_rng(3)
    design = np.column_stack(
        [np.ones(100), rng.normal(size=100), np.repeat(rng.normal(size=20), 5)]
    )
    q_factor, _ = np.linalg.qr(design)
    h_qr = (q_factor**2).sum(axis=1)
    h_inv = np.einsum("ij,jk,ik->i", design, np.linalg.inv(design.T @ design), design)
    assert not np.array_equal(h_qr, h_inv)
    np.testing.assert_allclose(h_qr, h_inv, rtol=1e-12)
    np.testing.assert_allclose(_noise(h_qr), _noise(h_inv), rtol=0, atol=1e-12 * h_qr.std())


def test_values_near_zero_keep_their_noise_under_absolute_errors():
    """A computed value near zero (a residual, a difference) carries the absolute error of the
    numbers it came from, far above its own last bit: it is rounded on the step of the
    variable's median magnitude, so such errors do not change the noise either."""
    rng = np.random.default_rng(5)
    r = rng.normal(0, 1, 500)
    r[:5] = [1e-6, -3e-7, 2e-9, 0.0, 5e-12]
    elsewhere = r + rng.uniform(-1e-14, 1e-14, r.size)
    assert np.max(np.abs(elsewhere[:5] / r[:5] - 1), where=r[:5] != 0, initial=0) > 1e-9
    np.testing.assert_allclose(_noise(elsewhere), _noise(r), rtol=0, atol=1e-12)


@pytest.mark.parametrize(
    "transform",
    [
        pytest.param(lambda x: x * (1 + 1e-8), id="times-1+1e-8"),
        pytest.param(lambda x: x + 1e-7 * x**2, id="plus-1e-7-x-squared"),
        pytest.param(lambda x: x**1.001, id="power-1.001"),
        pytest.param(np.log, id="log"),
    ],
)
def test_transformed_copies_draw_fresh_noise(transform):
    """Robust to the last bits, not to transforms: a copy of the data transformed by more than
    the rounding of the fingerprint draws independent noise (DESIGN.md section 2: the same
    draws for x and f(x) would give two equations in x and the noise)."""
    x = sample(n=400)
    y = transform(x)
    draws_x = _noise(x) / noise_sd(x)
    draws_y = _noise(y) / noise_sd(y)
    assert np.all(draws_x != draws_y)
    assert abs(np.corrcoef(draws_x, draws_y)[0, 1]) < 0.25


# -- row order ---------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 60),
    p=st.integers(1, 3),
    levels=st.integers(2, 1000),
)
def test_permuting_rows_permutes_the_output(seed, n, p, levels):
    rng = np.random.default_rng(seed)
    # Few distinct levels make ties within a column common.
    x = rng.integers(0, levels, size=(n, p)).astype(float)
    if np.ptp(x, axis=0).min() == 0:
        x[0] = levels  # no constant column
    perm = rng.permutation(n)
    out = noisy(x)
    out_perm = noisy(x[perm])
    if np.unique(x, axis=0).shape[0] == n:
        np.testing.assert_array_equal(out_perm, out[perm])
    # Identical rows are interchangeable: as a set of rows the output is the same.
    np.testing.assert_array_equal(np.unique(out_perm, axis=0), np.unique(out, axis=0))


def test_permuting_rows_with_ties_in_one_column():
    x = np.array([[1.0, 10.0], [1.0, 20.0], [2.0, 30.0], [1.0, 40.0], [3.0, 50.0]])
    perm = np.array([3, 1, 4, 0, 2])
    np.testing.assert_array_equal(noisy(x[perm]), noisy(x)[perm])


# -- noise level -------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(1000, 5000),
    q=st.floats(0.25, 2.0),
    loc=st.floats(-1e4, 1e4),
    scale=st.floats(1e-3, 1e4),
    shape=st.sampled_from(["normal", "lognormal", "uniform", "discrete"]),
)
def test_noise_sd_is_q_times_the_sd(seed, n, q, loc, scale, shape):
    rng = np.random.default_rng(seed)
    if shape == "normal":
        x = rng.normal(loc, scale, n)
    elif shape == "lognormal":
        x = loc + scale * rng.lognormal(0.0, 1.0, n)
    elif shape == "uniform":
        x = rng.uniform(loc, loc + scale, n)
    else:
        x = loc + scale * rng.integers(0, 5, n)
    target = q * x.std(ddof=1)
    noise = noisy(x, q=q) - x
    assert abs(noise.std(ddof=1) / target - 1) <= 0.10
    # The mean of n standard normals has SD 1/sqrt(n). Allow 6 of those: a 5-SE
    # bound fails by chance about once in 2 million examples, and one such data set
    # (z = 5.3) turned up, while 200,000 other fingerprints gave a standard normal
    # mean (max |z| 4.4). At 6 SE a false alarm is about 2e-9 per example.
    assert abs(noise.mean()) <= 6 * target / np.sqrt(n)


def test_noise_sd_per_column():
    x = sample(n=4000, p=3) * np.array([1.0, 10.0, 0.01])
    out = noisy(x, q=0.5)
    ratio = (out - x).std(axis=0, ddof=1) / (0.5 * x.std(axis=0, ddof=1))
    np.testing.assert_allclose(ratio, 1.0, atol=0.06)
    # Noise is independent between columns.
    assert abs(np.corrcoef((out - x).T)[0, 1]) < 0.1


def test_noise_sd_helper():
    x = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    assert noise_sd(x, 0.5) == pytest.approx(0.5 * np.sqrt(2.5))
    both = noise_sd(np.column_stack([x, 2 * x]), 0.25)
    np.testing.assert_allclose(both, [0.25 * np.sqrt(2.5), 0.5 * np.sqrt(2.5)])
    with pytest.raises(ValueError, match="q must be a positive"):
        noise_sd(x, 0.0)


# -- policy ------------------------------------------------------------------------------


def test_q_below_the_policy_floor_is_refused():
    with pytest.raises(DisclosureError, match=r"q_min=0\.25"):
        noisy(sample(), q=0.1)


def test_raised_floor_in_a_policy_block():
    x = sample()
    with policy(q_min=0.5):
        with pytest.raises(DisclosureError, match=r"q_min=0\.5"):
            add_keyed_noise(x, q=0.3, key=KEY)
        out = add_keyed_noise(x, q=0.5, key=KEY)
    np.testing.assert_array_equal(out, noisy(x, q=0.5))


@pytest.mark.parametrize("q", [0.0, -1.0, float("nan"), float("inf")])
def test_q_must_be_positive_and_finite(q):
    with pytest.raises(ValueError, match="q must be a positive finite number"):
        noisy(sample(), q=q)


def test_default_key_comes_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("SAFEPLOT_HOME", str(tmp_path))
    monkeypatch.setenv("SAFEPLOT_SECRET", MATERIAL)
    x = sample()
    np.testing.assert_array_equal(add_keyed_noise(x, policy=POLICY), noisy(x))
    assert not list(tmp_path.iterdir())  # the environment key is used: no key file


def test_default_key_comes_from_the_policy(monkeypatch, tmp_path):
    monkeypatch.setenv("SAFEPLOT_HOME", str(tmp_path))
    monkeypatch.setenv("SAFEPLOT_SECRET", "not the policy key")
    x = sample()
    out = add_keyed_noise(x, policy=Policy(secret_key=OTHER_KEY))
    np.testing.assert_array_equal(out, noisy(x, key=OTHER_KEY))


# -- the key stays secret ----------------------------------------------------------------


def _assert_no_material(text: str) -> None:
    assert MATERIAL not in text
    assert MATERIAL.encode().hex() not in text


def test_key_material_never_shown():
    _assert_no_material(repr(KEY))
    _assert_no_material(str(KEY))
    _assert_no_material(f"{KEY}")
    _assert_no_material(repr(Policy(secret_key=KEY)))
    out = noisy(sample())
    _assert_no_material(repr(out))
    assert MATERIAL.encode() not in out.tobytes()


@pytest.mark.parametrize(
    "call",
    [
        lambda: noisy(sample(), q=0.1),
        lambda: noisy([1.0, np.nan, 3.0]),
        lambda: noisy([1.0]),
        lambda: noisy(sample(p=2), names=["a"]),
        lambda: noisy(np.ones(10)),
        lambda: add_keyed_noise(sample(), key=MATERIAL, policy=POLICY),
        lambda: add_keyed_noise(sample(), key=MATERIAL.encode(), policy=POLICY),
    ],
)
def test_key_material_not_in_errors_or_warnings(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises((ValueError, TypeError)) as excinfo:
            call()
    _assert_no_material(str(excinfo.value))
    _assert_no_material(repr(excinfo.value))
    assert not caught


def test_no_warnings_on_success():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        noisy(sample(p=2))


def test_secret_key_refuses_pickling():
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(KEY)
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(Policy(secret_key=KEY))


def test_raw_secret_as_key_is_refused():
    with pytest.raises(TypeError, match="SecretKey"):
        add_keyed_noise(sample(), key=MATERIAL, policy=POLICY)


# -- bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ([1.0, np.nan, 3.0, 4.0], "NaN or infinite"),
        ([1.0, np.inf, 3.0, 4.0], "NaN or infinite"),
        ([[1.0, 2.0], [-np.inf, 1.0], [3.0, 4.0]], "NaN or infinite"),
        ([1.0], "at least 2"),
        ([], "at least 2"),
        (np.ones((2, 2, 2)), "1-D .* or 2-D"),
        (3.0, "1-D .* or 2-D"),
        (np.empty((5, 0)), "no columns"),
    ],
)
def test_bad_values(values, message):
    with pytest.raises(ValueError, match=message):
        noisy(values)


def test_text_is_refused():
    with pytest.raises(TypeError, match="numeric"):
        noisy(["a", "b", "c"])


def test_constant_variable_is_refused():
    x = np.column_stack([sample(n=10), np.full(10, 7.0)])
    with pytest.raises(DisclosureError, match=r"\['x1'\] are constant"):
        noisy(x)


@pytest.mark.parametrize(
    ("names", "error", "message"),
    [
        (["a"], ValueError, "names has 1 entries but values has 2"),
        (["a", "b", "c"], ValueError, "names has 3 entries"),
        (["a", "a"], ValueError, r"distinct; repeated: \['a'\]"),
        (["a", 1], TypeError, "must be strings"),
    ],
)
def test_bad_names(names, error, message):
    with pytest.raises(error, match=message):
        noisy(sample(p=2), names=names)


def test_a_noisy_value_landing_on_a_rare_raw_value_is_moved_off_it(monkeypatch):
    """Invariant 2 for keyed noise: a release never shows another record's rare value."""
    import safeplot.methods.probabilistic as probabilistic
    from safeplot import methods
    from safeplot.anonymize.grids import hit_mask, rare_values

    # b is no monotone copy of a (the ledger would refuse it as a second draw of a)
    x = np.column_stack([np.arange(1.0, 31.0), (31.0 + (np.arange(30) * 7) % 30) ** 1.5])

    def lands_on_a_record(values, q, **kwargs):
        out = np.asarray(values, dtype=float) + 0.5
        out[0, 0] = 7.0  # the noisy first record lands exactly on the record holding 7.0
        return out

    monkeypatch.setattr(probabilistic, "add_keyed_noise", lands_on_a_record)
    out = methods.anonymize_values(x, "probabilistic", names=["a", "b"])
    assert not hit_mask(out.values[:, 0], rare_values(x[:, 0], 3)).any()
    assert abs(out.values[0, 0] - 7.0) < 1e-4  # moved by 1e-6 SD, invisible in a figure
    np.testing.assert_array_equal(out.values[1:], x[1:] + 0.5)


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(1, 300),
    p=st.integers(1, 3),
    decimals=st.integers(0, 2),
    seed=st.integers(0, 2**16),
)
def test_the_rank_order_is_the_lexicographic_order_of_the_rounded_columns(n, p, decimals, seed):
    """Noise goes to records in the order of column j, ties broken by the other columns in
    column order, then by row: the order of one np.lexsort of every record (which the
    faster integer sort of the tied records must reproduce exactly, signed zeros included)."""
    from safeplot.anonymize.probabilistic import _FINGERPRINT_BITS, _ranks
    from safeplot.anonymize.statistics import round_bits

    rng = np.random.default_rng(seed)
    values = np.round(rng.normal(0, 3, (n, p)), decimals)
    values[rng.random((n, p)) < 0.1] *= -0.0
    rounded = [
        round_bits(values[:, i], _FINGERPRINT_BITS, _median_floor(values[:, i])) for i in range(p)
    ]
    for j in range(p):
        others = [rounded[i] for i in range(p) if i != j]
        expected = np.lexsort([np.arange(n), *reversed(others), rounded[j]])
        order, ranked = _ranks(values, j)
        np.testing.assert_array_equal(order, expected)
        np.testing.assert_array_equal(ranked, rounded[j][expected])


def _median_floor(column: np.ndarray) -> int | None:
    """The rounding's floor as documented: the exponent of the median non-zero |value|."""
    from safeplot.anonymize.probabilistic import _FINGERPRINT_BITS
    from safeplot.anonymize.statistics import round_bits

    nonzero = np.abs(column[column != 0])
    if nonzero.size == 0:
        return None
    return int(np.frexp(round_bits(np.median(nonzero), _FINGERPRINT_BITS))[1])


@settings(max_examples=200, deadline=None)
@given(
    n=st.integers(1, 60),
    negative=st.floats(0, 1),
    zeros=st.floats(0, 1),
    scale=st.sampled_from([1e-300, 1e-9, 0.37, 1.0, 2.0, 1e12]),
    seed=st.integers(0, 2**16),
)
def test_the_floor_from_sorted_values_is_the_median_floor(n, negative, zeros, scale, seed):
    """The noise finds each variable's rounding floor from its sorted values (two sorted runs
    of absolute values, no copy); it must be the exponent of numpy's median of the non-zero
    absolute values exactly, powers of two, ties and signed zeros included."""
    from safeplot.anonymize.probabilistic import _floor

    rng = np.random.default_rng(seed)
    x = np.round(rng.lognormal(0, 1, n), 1) * scale  # rounded: ties and exact powers of two
    x[rng.random(n) < negative] *= -1
    x[rng.random(n) < zeros] = rng.choice([0.0, -0.0])
    assert _floor(np.sort(x)) == _median_floor(x)


@settings(max_examples=300, deadline=None)
@given(
    values=st.lists(
        st.floats(allow_nan=False, allow_infinity=False, allow_subnormal=True), min_size=1
    ),
    floor=st.one_of(st.none(), st.integers(-1080, 1024)),  # frexp exponents of doubles
    bits=st.sampled_from([2, 3, 17, 30, 52]),
)
def test_rounding_on_the_bits_is_the_rounding_by_scaling(values, floor, bits):
    """The fingerprint's rounding clears low mantissa bits (fast); it must give exactly the
    documented scaling by powers of two: subnormals, signed zeros, carries into the exponent
    and the largest doubles included."""
    from safeplot.anonymize.statistics import _round_bits_scaled, round_bits

    x = np.array(values, dtype=float)
    with np.errstate(over="ignore"):
        fast, scaled = round_bits(x, bits, floor), _round_bits_scaled(x, bits, floor)
    np.testing.assert_array_equal(fast, scaled)
    assert not np.signbit(fast[fast == 0]).any()


def test_rounding_on_the_bits_rounds_exact_ties_as_the_scaling_does():
    """Values exactly half way between two rounded values (where ties-to-even decides), at
    and below the floor, subnormal ones and the largest double, for many floors and widths."""
    from safeplot.anonymize.statistics import _round_bits_scaled, round_bits

    rng = np.random.default_rng(7)
    for _ in range(400):
        bits = int(rng.choice([2, 3, 5, 17, 30, 52]))
        floor = int(rng.integers(-1100, 1025))
        k = rng.integers(-50, 50, 60).astype(float)
        with np.errstate(over="ignore"):
            x = np.r_[
                np.ldexp(k + 0.5, floor - bits),  # ties at the floor's step
                np.ldexp(k + 0.5, floor - bits + 4),  # ties of values above the floor
                np.ldexp(rng.normal(0, 1, 40), floor - 2),
                [-0.0, 0.0, 5e-324, -2.2250738585072014e-308, 1.7976931348623157e308],
            ]
            x = x[np.isfinite(x)]
            for f in (floor, None):
                fast, scaled = round_bits(x, bits, f), _round_bits_scaled(x, bits, f)
                np.testing.assert_array_equal(fast, scaled)


def test_rounding_on_the_bits_keeps_the_shape_of_a_table():
    """Values below the floor are found by flat position: in a 2-D array each is rounded
    where it stands, as each value of the flattened array is."""
    from safeplot.anonymize.statistics import round_bits

    x = np.random.default_rng(8).normal(0, 1, (7, 5)) * np.logspace(-4, 2, 5)
    for floor in (None, -3, 2):
        out = round_bits(x, 4, floor)
        assert out.shape == x.shape
        np.testing.assert_array_equal(out.ravel(), round_bits(x.ravel(), 4, floor))


def test_rounding_to_one_bit_is_refused():
    from safeplot.anonymize.statistics import round_bits

    with pytest.raises(ValueError, match="from 2 to 52"):
        round_bits([1.5], 1)
