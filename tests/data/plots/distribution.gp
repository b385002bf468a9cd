# 'distribution of experiment 1', written by contend.
# Re-render: gnuplot 'distribution.gp'   or as SVG: gnuplot -e "fmt='svg'" 'distribution.gp'
if (!exists('fmt')) fmt = 'png'
if (fmt eq 'svg') {
    set terminal svg size 1000,580 dynamic noenhanced font 'sans,11' background rgb 'white'
} else {
    set terminal pngcairo size 1000,580 noenhanced font 'sans,10'
}
if (exists('contend_stdout')) { set output } else { set output (fmt eq 'svg' ? 'distribution.svg' : 'distribution.png') }
set title 'distribution: plot-fixture — testhost, 6.1.0-test'
set grid
set key outside right top
set border 3
set tics nomirror
set multiplot layout 1,2 title 'distribution of the measured runs, by configuration'
unset title
set key below horizontal
set bmargin 7
set title 'mutex: throughput'
set ylabel 'throughput (ops/s)'
set format y '%.1s%c'
set xtics rotate by 20 right ('threads=1' 1, 'threads=2' 2, 'threads=4' 3)
set xrange [0.4:3.8]
unset label
plot \
  'distribution.dat' index 0 using ($1 + $3):2 with points pt 7 ps 0.7 lc rgb '#222222' title 'runs', \
  'distribution.dat' index 1 using ($1 + 0.35):2:3:4 with yerrorbars pt 5 ps 1 lw 2 lc rgb '#4477aa' title 'mean and its 95% CI', \
  'distribution.dat' index 1 using ($1 + 0.35):5:(0.12) with xerrorbars pt -1 lw 2 lc rgb '#cc6677' title 'median', \
  'distribution.dat' index 2 using ($1 + $3):2 with points pt 7 ps 0.7 lc rgb '#222222' notitle, \
  'distribution.dat' index 3 using ($1 + 0.35):2:3:4 with yerrorbars pt 5 ps 1 lw 2 lc rgb '#4477aa' notitle, \
  'distribution.dat' index 3 using ($1 + 0.35):5:(0.12) with xerrorbars pt -1 lw 2 lc rgb '#cc6677' notitle, \
  'distribution.dat' index 4 using ($1 + $3):2 with points pt 7 ps 0.7 lc rgb '#222222' notitle, \
  'distribution.dat' index 5 using ($1 + 0.35):2:3:4 with yerrorbars pt 5 ps 1 lw 2 lc rgb '#4477aa' notitle, \
  'distribution.dat' index 5 using ($1 + 0.35):5:(0.12) with xerrorbars pt -1 lw 2 lc rgb '#cc6677' notitle
unset key
set title 'x`touch pwned-bq` ''"\ system("touch pwned-sys") @mac: throughput'
set ylabel 'throughput (ops/s)'
set format y '%g'
set xtics rotate by 20 right ('x`touch pwned-bq` ''"\ system("touch p...' 1)
set xrange [0.4:1.8]
unset label
plot \
  'distribution.dat' index 6 using ($1 + $3):2 with points pt 7 ps 0.7 lc rgb '#222222' title 'runs', \
  'distribution.dat' index 7 using ($1 + 0.35):2:3:4 with yerrorbars pt 5 ps 1 lw 2 lc rgb '#4477aa' title 'mean and its 95% CI', \
  'distribution.dat' index 7 using ($1 + 0.35):5:(0.12) with xerrorbars pt -1 lw 2 lc rgb '#cc6677' title 'median'
unset multiplot
