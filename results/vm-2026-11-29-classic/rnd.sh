#!/bin/bash
RANDOM=33
for i in $(seq 1 60); do
  m=$(( (RANDOM % 2048 + 32) * 64 )); k=$(( RANDOM % 21 + 4 ));
  n=$(awk -v m=$m -v k=$k -v r=$RANDOM 'BEGIN{bpk=4+ (r%28); n=int(m/bpk); if(n<1)n=1; print n}')
  ./sim $n $m $k 128 65536 $i
done
