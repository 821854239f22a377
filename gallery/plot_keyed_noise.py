"""
Keyed noise: re-drawing does not average the noise away
=======================================================

Probabilistic anonymisation adds Gaussian noise with standard deviation ``q``
times each variable's SD. If every release drew fresh noise, averaging many
releases of the same data would recover the raw values. safeplot's noise is
*keyed*: the generator is seeded from a secret key and a fingerprint of the
data, so the same data always get the same noise.

Releases at different ``q`` share a base noise at the policy's ``q_min``, so
they cannot be combined to cancel it either. The plot shows the error of the
average of 50 releases, against the number of releases averaged.
"""

import matplotlib.pyplot as plt
import numpy as np

from safeplot.anonymize import add_keyed_noise
from safeplot.keys import SecretKey

key = SecretKey("gallery example key, not secret", source="gallery")
x = np.random.default_rng(3).normal(100, 15, 1000)

releases = np.array([add_keyed_noise(x, q=0.25, key=key) for _ in range(50)])
fresh = x + np.random.default_rng(4).normal(0, 0.25 * x.std(ddof=1), (50, x.size))

m = np.arange(1, 51)
keyed_error = [np.sqrt(np.mean((releases[:i].mean(0) - x) ** 2)) for i in m]
fresh_error = [np.sqrt(np.mean((fresh[:i].mean(0) - x) ** 2)) for i in m]

fig, ax = plt.subplots(figsize=(6, 3.2), layout="constrained")
ax.plot(m, fresh_error, label="fresh noise each time")
ax.plot(m, keyed_error, label="keyed noise (safeplot)")
ax.set_xlabel("releases averaged")
ax.set_ylabel("RMS error of the average")
ax.legend()
plt.show()
