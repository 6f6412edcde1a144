# Latency CDFs per filter size, from sbf-bench's lat_*.dat: single-key
# sbf_contains as a dependent chain (latency.png: the next key comes from the
# previous answer) and as independent calls (latency_indep.png: per-call time
# of a stream), and sbf_contains_u64 of 256 keys (latency_batch.png).
# Each curve is what the clock resolves: G in the legend is the number of
# consecutive calls per timed sample (G > 1: a sample is their mean).
# Called by scripts/bench.sh: gnuplot -e "dir='DIR'; term='pngcairo'" latency.gp
load dir.'/plotvars.gp'
load 'scripts/colours.gp'
if (term eq 'pngcairo') {
  set terminal pngcairo size 1400,1000 font ',10' noenhanced
} else {
  set terminal png size 1400,1000 noenhanced
}
set xlabel 'ns per call (timer overhead subtracted; G > 1: each sample is the mean of G calls)'
set ylabel 'fraction of samples'
set yrange [0:1]
set grid
set key bottom right
set style data lines
n = words(sizes)
rows = n > 2 ? 2 : 1
cols = n > 1 ? 2 : 1
do for [kind in 'chain indep batch'] {
  set output dir.'/latency'.(kind eq 'chain' ? '' : '_'.kind).'.png'
  set multiplot layout rows,cols title (kind eq 'batch' ? \
      'Time per call, sbf_contains_u64 of 256 keys' : kind eq 'chain' ? \
      'Latency CDF, single-key sbf_contains, dependent chain (next key from the previous answer)' : \
      'Per-call time CDF, single-key sbf_contains, independent calls')
  do for [s=1:(n < 4 ? n : 4)] {
    files = value('lat_'.kind.'_'.s.'_files')
    titles = value('lat_'.kind.'_'.s.'_titles')
    set title word(sizes, s)
    x0 = value('lat_'.kind.'_'.s.'_xmin')
    x1 = value('lat_'.kind.'_'.s.'_xmax')
    # log x where the panel spans a decade or more; linear (readable ticks) else
    if (x1 > 10 * x0) { set logscale x } else { unset logscale x }
    set xrange [x0:x1]
    plot for [i=1:words(files)] dir.'/'.word(files, i) using 1:2 skip 1 lw 2 \
         lc rgb series_colour(lat_layout(word(titles, i))) dt lat_dash(word(titles, i)) \
         title word(titles, i)
  }
  unset multiplot
}
