"""Drives "mpg123" (tplayer -R, by the PATH the test sets) with the mpyg321 package, unchanged.

Prints one line per callback it gets: paused, resumed, music ended. Exits 1 if the song's end
is not reported within 15 seconds.
"""
import sys
import threading
import time

from mpyg321.MPyg123Player import MPyg123Player

ended = threading.Event()


class Player(MPyg123Player):
    def on_user_pause(self):
        print("paused", flush=True)

    def on_user_resume(self):
        print("resumed", flush=True)

    def on_music_end(self):
        print("music ended", flush=True)
        ended.set()


player = Player()
player.play_song(sys.argv[1])
time.sleep(0.5)
player.pause()
time.sleep(0.3)
player.resume()
player.jump("+40")
player.volume(50)
ok = ended.wait(15)
player.quit()
time.sleep(0.3)
sys.exit(0 if ok else 1)
