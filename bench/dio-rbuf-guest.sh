#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# dio-rbuf-guest.sh -- runs inside the qemu test guest (see
# dio-rbuf-bench.sh): sg3_utils' sg_rbuf and libdirectio's dio-rbuf on the
# same TCMU target in the same boot, interleaved (A B, then B A), for each
# transfer mode and several buffer sizes.  Throughput of each run is the
# bytes moved over the tool's own timed seconds; the ratio is dio-rbuf's
# over sg_rbuf's, per pair, and the median of the pairs is printed.
#
# Environment: PAIRS (default 9), SIZES (default "4096 16384 65536"),
# TOTAL_CMDS (commands per run, default 256).
pairs=${PAIRS:-9}
sizes=${SIZES:-"4096 16384 65536"}
cmds=${TOTAL_CMDS:-256}
dev=$DIO_TCMU_SG
[ -n "$dev" ] || { echo "no TCMU sg device"; exit 99; }
echo 1 >/sys/module/sg/parameters/allow_dio   # so that -d can really be direct

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
                                              else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# sg_rbuf -t prints "time to read data from buffer was S secs"
sg_secs() { sed -n 's/.*from buffer was \([0-9.]*\) secs.*/\1/p'; }
# dio-rbuf csv: the run line's "seconds" column
dio_secs() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "seconds") c = i }
                      NR > 1 && $1 == "run" { print $c }'; }

printf '%-9s %7s %6s %12s %12s %8s %8s\n' mode size pairs "sg_rbuf MB/s" \
	"dio-rbuf MB/s" ratio min_ratio
for mode in indirect direct no-copy mmap; do
	case $mode in
	indirect) f= ;; direct) f=-d ;; no-copy) f=-q ;; mmap) f=-m ;;
	esac
	for size in $sizes; do
		total=$((size * cmds))
		: >/tmp/r.sg; : >/tmp/r.dio; : >/tmp/r.ratio
		i=0
		while [ $i -lt "$pairs" ]; do
			for t in $([ $((i % 2)) -eq 0 ] && echo "sg dio" || echo "dio sg"); do
				if [ $t = sg ]; then
					s=$(sg_rbuf -t $f -b $size -s $total "$dev" 2>&1 | sg_secs)
					echo "$s" >>/tmp/r.sg
				else
					s=$(dio-rbuf $f -b $size -s $total -f csv "$dev" 2>/dev/null | dio_secs)
					echo "$s" >>/tmp/r.dio
				fi
			done
			i=$((i + 1))
		done
		paste /tmp/r.sg /tmp/r.dio | awk '$1 > 0 && $2 > 0 { print $1 / $2 }' >/tmp/r.ratio
		n=$(wc -l </tmp/r.ratio)
		sgm=$(awk -v b=$total '$1 > 0 { print b / $1 / 1e6 }' /tmp/r.sg | median)
		dim=$(awk -v b=$total '$1 > 0 { print b / $1 / 1e6 }' /tmp/r.dio | median)
		printf '%-9s %7d %6d %12.2f %12.2f %8.3f %8.3f\n' $mode $size $n "$sgm" "$dim" \
			"$(median </tmp/r.ratio)" "$(sort -n /tmp/r.ratio | head -n 1)"
	done
done

echo
echo "dio-rbuf's derived latency and bandwidth (--sweep, every mode):"
dio-rbuf --sweep --sizes "$(echo $sizes | tr ' ' ',')" -s $((65536 * cmds)) "$dev" 2>&1 |
	sed -n '/^Time in seconds/,$p' | head -n 40
