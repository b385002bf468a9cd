# scaling of experiment 1, written by contend.
# Re-render: gnuplot scaling-1.gp   or as SVG: gnuplot -e "fmt='svg'" scaling-1.gp
if (!exists('fmt')) fmt = 'png'
if (fmt eq 'svg') {
    set terminal svg size 1000,800 dynamic noenhanced font 'sans,11' background rgb 'white'
    set output 'scaling-1.svg'
} else {
    set terminal pngcairo size 1000,800 noenhanced font 'sans,10'
    set output 'scaling-1.png'
}
set title 'scaling: plot-fixture — testhost, 6.1.0-test'
set grid
set key outside right top
set border 3
set tics nomirror
set multiplot layout 2,1
set xlabel 'threads'
set ylabel 'throughput (ops/s)'
set yrange [0:*]
set logscale x 2
plot \
  'scaling-1.dat' index 0 using 1:2:3:4 with yerrorlines lw 2 pt 7 title 'mutex', \
  for [i=0:0] 'scaling-1.dat' index i using 1:($8 > 0 ? $2 : 1/0) with points pt 6 ps 3 lc rgb 'red' title (i == 0 ? 'flagged' : '')
unset title
set yrange [0:*]
set ylabel 'contention rate (contended / ops)'
plot \
  'scaling-1.dat' index 0 using 1:5:6:7 with yerrorlines lw 2 pt 7 title 'mutex', \
  for [i=0:0] 'scaling-1.dat' index i using 1:($8 > 0 ? $5 : 1/0) with points pt 6 ps 3 lc rgb 'red' title (i == 0 ? 'flagged' : '')
unset multiplot
