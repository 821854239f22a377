"""
Scatter plots of many records
=============================

Above 100,000 released points, safeplot draws the point layer as one
raster image (axes, ticks and text stay vector) and each distinct released
point once. Deterministic anonymisation gives records that share all their
nearest neighbours the same centroid; such a shared point is drawn once, in
its usual colour, so the plot reads as it would with fewer records. With
``mark_coincident=True`` shared points are drawn black, as Avraam et al.
draw coinciding centroids, at any number of records, and a note above the
plot says so. Only the fact that a point is shared is shown, never how many
records share it.
"""

# %%
# Two hundred thousand records, rounded to one decimal as recorded
# measurements often are: many centroids coincide.
import io

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import safeplot

rng = np.random.default_rng(1)
x = np.round(rng.normal(50, 10, 200_000), 1)
df = pd.DataFrame({"x": x, "y": np.round(0.5 * x + rng.normal(0, 5, x.size), 1)})

# %%
# The deterministic scatter (k = 3) next to the density-grid scatter of
# ``"suppress"``, whose few hundred cell markers are always vector.
fig, (left, right) = plt.subplots(1, 2, figsize=(9, 4), layout="constrained")
safeplot.scatterplot(data=df, x="x", y="y", method="deterministic", ax=left)
safeplot.scatterplot(data=df, x="x", y="y", method="suppress", ax=right)
left.set_title("deterministic (k=3)", loc="left")
right.set_title("suppress", loc="left")

# %%
# The figure stays small as a vector file: the points are one image per
# layer, the text is text.
buf = io.BytesIO()
fig.savefig(buf, format="pdf")
print(f"PDF: {len(buf.getvalue()) / 1e3:.0f} kB")
print("rasterised point layers:", [c.get_rasterized() for c in left.collections])
