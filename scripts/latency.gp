# Latency CDFs per filter size: single-key contains (latency.png) and batched
# contains of 256 keys (latency_batch.png), from sbf-bench's lat_*.dat.
# Called by scripts/bench.sh: gnuplot -e "dir='DIR'; term='pngcairo'" latency.gp
load dir.'/plotvars.gp'
if (term eq 'pngcairo') {
  set terminal pngcairo size 1400,1000 font ',10' noenhanced
} else {
  set terminal png size 1400,1000 noenhanced
}
set logscale x
set xlabel 'ns per call (timer overhead subtracted)'
set ylabel 'fraction of calls'
set yrange [0:1]
set grid
set key bottom right
set style data lines
n = words(sizes)
rows = n > 2 ? 2 : 1
cols = n > 1 ? 2 : 1
do for [kind in 'single batch'] {
  set output dir.'/latency'.(kind eq 'batch' ? '_batch' : '').'.png'
  set multiplot layout rows,cols title (kind eq 'batch' ? \
      'Latency CDF, sbf_contains_u64 of 256 keys' : 'Latency CDF, single-key sbf_contains')
  do for [s=1:(n < 4 ? n : 4)] {
    files = value('lat_'.kind.'_'.s.'_files')
    titles = value('lat_'.kind.'_'.s.'_titles')
    set title word(sizes, s)
    set xrange [*:value('lat_'.kind.'_'.s.'_xmax')]
    plot for [i=1:words(files)] dir.'/'.word(files, i) using 1:2 skip 1 lw 2 title word(titles, i)
  }
  unset multiplot
}
