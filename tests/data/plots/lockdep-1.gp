# 'throughput and lock hand-offs against threads: mutex of experiment 1', written by contend.
# Re-render: gnuplot 'lockdep-1.gp'   or as SVG: gnuplot -e "fmt='svg'" 'lockdep-1.gp'
if (!exists('fmt')) fmt = 'png'
if (fmt eq 'svg') {
    set terminal svg size 1000,520 dynamic noenhanced font 'sans,11' background rgb 'white'
} else {
    set terminal pngcairo size 1000,520 noenhanced font 'sans,10'
}
if (exists('contend_stdout')) { set output } else { set output (fmt eq 'svg' ? 'lockdep-1.svg' : 'lockdep-1.png') }
set title 'throughput and lock hand-offs against threads: mutex: plot-fixture — testhost, 6.1.0-test'
set grid
set key outside right top
set border 3
set tics nomirror
set multiplot layout 1,3 title 'throughput and lock hand-offs against threads: mutex'
unset title
set key below
set bmargin 7
set xlabel 'threads'
set xtics ('1' 1, '2' 2, '4' 4)
set logscale x 2
set offsets graph 0.05, graph 0.05, 0, 0
set ylabel 'throughput (ops/s)'
set format y '%.1s%c'
set yrange [0:3.22875e+07]
plot \
  'lockdep-1.dat' index 0 using 1:2:3:4 with yerrorlines lw 2 pt 7 lc 1 title 'mean, bars: its 95% CI', \
  for [i=0:0] 'lockdep-1.dat' index i using 1:($11 > 0 ? $2 : 1/0) with points pt 6 ps 3 lw 2 lc rgb 'red' title (i == 0 ? 'suspect gain (misleading-throughput)' : '')
unset key
set ylabel 'lock hand-offs/s'
set format y '%.1s%c'
set yrange [0:1.93725e+06]
plot \
  'lockdep-1.dat' index 0 using 1:5:6:7 with yerrorlines lw 2 pt 7 lc 1 title 'mean, bars: its 95% CI', \
  for [i=0:0] 'lockdep-1.dat' index i using 1:($11 > 0 ? $5 : 1/0) with points pt 6 ps 3 lw 2 lc rgb 'red' title (i == 0 ? 'suspect gain (misleading-throughput)' : '')
set ylabel 'contended acquisitions (%)'
set format y '%g'
set yrange [0:43.05]
plot \
  'lockdep-1.dat' index 0 using 1:8:9:10 with yerrorlines lw 2 pt 7 lc 1 title 'mean, bars: its 95% CI', \
  for [i=0:0] 'lockdep-1.dat' index i using 1:($11 > 0 ? $8 : 1/0) with points pt 6 ps 3 lw 2 lc rgb 'red' title (i == 0 ? 'suspect gain (misleading-throughput)' : '')
unset multiplot
