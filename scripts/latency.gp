# Latency CDFs per filter size, from sbf-bench's lat_*.dat: single-key
# sbf_contains as a dependent chain (latency.png: the next key comes from the
# previous answer) and as independent calls (latency_indep.png: per-call time
# of a stream), and sbf_contains_u64 of 256 keys (latency_batch.png).
# Every panel has a logarithmic x axis over its own range, labelled at round
# values (1, 2, 5 per decade; finer in a panel narrower than a decade), so
# no panel is left with one label. Calls too short for the clock
# are timed in groups, and a sample is then a group's time per call
# (REPORT.md, Latency, says which rows).
# Called by scripts/bench.sh: gnuplot -e "dir='DIR'; term='pngcairo'" latency.gp
load dir.'/plotvars.gp'
load 'scripts/colours.gp'
if (term eq 'pngcairo') {
  set terminal pngcairo size 1400,1000 font ',10' noenhanced
} else {
  set terminal png size 1400,1000 noenhanced
}
set xlabel 'ns per call (log scale, k = 1000; timer overhead subtracted; short calls timed in groups, per call)'
set ylabel 'fraction of samples'
set yrange [0:1]
set grid
set key bottom right
set style data lines
set logscale x
# tick labels: ns, with k for thousands and M for millions
ns_label(v) = v >= 1e6 ? sprintf('%gM', v / 1e6) : v >= 1e4 ? sprintf('%gk', v / 1e3) : sprintf('%g', v)
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
    set xrange [x0:x1]
    set xtics ()
    mant = x1 > 1000 * x0 ? '1' : x1 > 10 * x0 ? '1 2 5' : '1 1.2 1.5 2 2.5 3 4 5 6 7 8'
    do for [e=floor(log10(x0)):ceil(log10(x1))] {
      do for [m in mant] {
        v = m * 10.0 ** e
        if (v >= x0 && v <= x1) { set xtics add (ns_label(v) v) }
      }
    }
    plot for [i=1:words(files)] dir.'/'.word(files, i) using 1:2 skip 1 lw 2 \
         lc rgb series_colour(lat_layout(word(titles, i))) dt lat_dash(word(titles, i)) \
         title lat_title(word(titles, i))
  }
  unset multiplot
}
