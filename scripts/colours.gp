# One colour per series, the same in every plot (loaded by every scripts/*.gp):
# ISAs, the two references, layouts, and the false-positive plot's measured
# points and formulas, each a colour no other series uses.
series_colour(name) = \
  name eq 'scalar'      ? '#7f7f7f' : \
  name eq 'simde'       ? '#bcbd22' : \
  name eq 'avx2'        ? '#1f77b4' : \
  name eq 'avx512'      ? '#d62728' : \
  name eq 'neon'        ? '#9467bd' : \
  name eq 'roofline'    ? '#000000' : \
  name eq 'libbloom'    ? '#ff7f0e' : \
  name eq 'classic'     ? '#8c564b' : \
  name eq 'blocked'     ? '#17becf' : \
  name eq 'split-block' ? '#2ca02c' : \
  name eq 'counting'    ? '#e377c2' : \
  name eq 'parquet'     ? '#393b79' : \
  name eq 'measured'    ? '#ff00ff' : \
  name eq 'exact'       ? '#daa520' : \
  name eq 'putze'       ? '#00ced1' : \
  name eq 'classic formula' ? '#a0522d' : '#333333'
# A latency series' title is "<layout>[/absent|/present]": its layout ...
lat_layout(t) = strstrt(t, '/') > 0 ? t[1:strstrt(t, '/') - 1] : t
# ... its dash: solid for absent keys and batches, dashed for present ...
lat_dash(t) = strstrt(t, '/present') > 0 ? 2 : 1
# ... and its legend in words.
lat_title(t) = strstrt(t, '/') > 0 ? lat_layout(t).', '.t[strstrt(t, '/') + 1:].' keys' : t
