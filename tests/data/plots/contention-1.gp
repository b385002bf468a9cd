# 'contention of experiment 1', written by contend.
# Re-render: gnuplot 'contention-1.gp'   or as SVG: gnuplot -e "fmt='svg'" 'contention-1.gp'
if (!exists('fmt')) fmt = 'png'
if (fmt eq 'svg') {
    set terminal svg size 1000,600 dynamic noenhanced font 'sans,11' background rgb 'white'
} else {
    set terminal pngcairo size 1000,600 noenhanced font 'sans,10'
}
if (exists('contend_stdout')) { set output } else { set output (fmt eq 'svg' ? 'contention-1.svg' : 'contention-1.png') }
set title 'contention: plot-fixture — testhost, 6.1.0-test'
set grid
set key outside right top
set border 3
set tics nomirror
set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05
set xrange [0:*]
set xlabel 'contended acquisitions (% of acquisitions)'
set format y '%.1s%c'
set ylabel 'throughput (ops/s)'
set key title 'mutex' left
set key below Left reverse
plot \
  'contention-1.dat' index 0 using 1:2 with points pt 7 ps 1.2 title 'threads=1', \
  'contention-1.dat' index 1 using 1:2 with points pt 7 ps 1.2 title 'threads=2', \
  'contention-1.dat' index 2 using 1:2 with points pt 6 ps 1.2 title '(!) threads=4', \
  keyentry with points pt 6 lc rgb 'black' title '(!) and open marks: flagged; contend report says why', \
  keyentry with points pt 1 lc rgb 'white' title sprintf('over %d runs: Pearson r = %.3f (p = %.2g), Spearman rho = %.3f (p = %.2g)', 15, -0.090332342355251866, 0.7488475309582836, 0.52735990140364819, 0.043364026585212143)
