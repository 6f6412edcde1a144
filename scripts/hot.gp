# One key at a time: per layout, ns per key of the single-key calls
# (sbf_contains / sbf_add, the inline view, the narrowed view) beside the
# per-key cost of a batched call, from sbf-bench's hot.dat (the summary
# table of REPORT.md). Colours: the operation, not a series of colours.gp.
# Called by scripts/bench.sh: gnuplot -e "dir='DIR'; term='pngcairo'" hot.gp
load dir.'/plotvars.gp'
if (term eq 'pngcairo') {
  set terminal pngcairo size 1400,600 font ',10' noenhanced
} else {
  set terminal png size 1400,600 noenhanced
}
set output dir.'/hot.png'
set datafile missing 'NaN'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set ylabel 'ns per key (lower is better)'
set yrange [0:*]
set grid ytics
set key inside top right vertical
f = dir.'/hot.dat'
stats f using 2 skip 1 nooutput
set xrange [-0.6:STATS_records - 0.4]
set multiplot layout 1,2 title 'One key at a time against a batch, '.hot_where.'; gaps: not offered for that layout'
set title 'contains, absent keys'
plot f using 2:xtic(1) skip 1 title 'sbf_contains' lc rgb '#4c72b0', \
     '' using 3 skip 1 title 'inline view' lc rgb '#55a868', \
     '' using 4 skip 1 title 'narrowed view' lc rgb '#c44e52', \
     '' using 5 skip 1 title 'batched, per key' lc rgb '#8172b2'
set title 'add, fresh keys'
plot f using 6:xtic(1) skip 1 title 'sbf_add' lc rgb '#4c72b0', \
     '' using 7 skip 1 title 'inline view' lc rgb '#55a868', \
     '' using 8 skip 1 title 'narrowed view' lc rgb '#c44e52', \
     '' using 9 skip 1 title 'batched, per key' lc rgb '#8172b2'
unset multiplot
