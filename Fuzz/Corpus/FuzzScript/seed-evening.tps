# evening.tps: two minutes of each album, quieter after nine
volume 80%
add ~/Music/Blue Train/
~/Music/lists/late.m3u
play
wait 2m
next
wait end
seek 50%
volume 40%
wait 1:30
  load "b c.mp3"
repeat on
shuffle off
plya
quit
