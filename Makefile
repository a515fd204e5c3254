# tplayer: `make run` plays the demo songs, `make test` runs the tests, `make bench` measures
# tplayer against mpg123 side by side and prints one table (bench/README.md).
# `make install` (and `make uninstall`) puts tplayer, its manual page, its bash, zsh and fish
# completions, its desktop entry, its user service and Snapcast's stream plugin under PREFIX (default /usr/local), staged under DESTDIR.
# The audit: `make fuzz` fuzzes the parsers (FUZZ_SECONDS each, default 60) and replays the saved
# cases; `make test-sanitize` runs the whole suite under ThreadSanitizer and AddressSanitizer.
# Each target first installs the Debian packages it needs that are missing (as root, or via sudo).

SWIFT        ?= swift
RELEASE      := -c release --static-swift-stdlib
BIN          := .build/release/tplayer
# Building: the C libraries and pkg-config. Testing and benchmarking add the reference player
# (mpg123), a real terminal (tmux), a sound server (pulseaudio), the song makers (sox, lame),
# GNU time and python3 for the benchmarks, mutagen (python3-mutagen) to tag songs as Picard does, and python3-venv for the mpyg321 front-end that the
# remote-protocol test installs from PyPI into .build/frontends-venv, and a private D-Bus
# (dbus-run-session) with playerctl and gdbus (libglib2.0-bin) for the MPRIS tests, pactl
# (pulseaudio-utils) to look at a test server's streams, strace to count a scan's system calls,
# and an Icecast server (icecast2) for the internet-radio tests, Snapcast (snapserver, snapclient) for the rooms, and PipeWire (pipewire,
# pipewire-pulse, and wireplumber to link its streams) for every sample heard on it. sd-bus (libsystemd-dev) builds
# MPRIS; SQLite (libsqlite3-dev) the library, through GRDB; libpulse-dev the native PulseAudio
# output; libcurl4-openssl-dev internet streams; libchafa-dev the now-playing view's cover;
# libshout3-dev the Icecast output (mpv listens to it in its tests, beside tplayer).
BUILD_DEPS   := pkg-config libmpg123-dev libao-dev libsystemd-dev libpulse-dev libsoxr-dev libflac-dev libvorbis-dev libsqlite3-dev \
                libopusfile-dev libavformat-dev libavcodec-dev libswresample-dev librubberband-dev libcurl4-openssl-dev libchafa-dev libshout3-dev
TEST_DEPS    := $(BUILD_DEPS) python3-mutagen mpg123 tmux pulseaudio pulseaudio-utils sox lame flac vorbis-tools opus-tools ffmpeg time python3 python3-venv \
                dbus-daemon dbus-bin playerctl libglib2.0-bin strace man-db desktop-file-utils icecast2 openssl \
                pipewire pipewire-pulse wireplumber sqlite3 mpd mpc ncmpcpp python3-mpd mpdris2 systemd \
                snapserver snapclient mpv
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all build run test test-live-formats bench start-order fuzz test-sanitize deps-build deps-test deps-bench clean \
        install install-files uninstall

all: build

# Installs the packages named in $(1) that dpkg does not list as installed.
define install_missing
	@missing=""; \
	for p in $(1); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "Installing:$$missing"; \
		$(SUDO) apt-get update -q && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q $$missing; \
	fi
endef

deps-build:
	$(call install_missing,$(BUILD_DEPS))

deps-test:
	$(call install_missing,$(TEST_DEPS))

# The benchmarks add MPD and mpc, the library's reference (bench/library.py), and mpv, the
# reference for --speed (its af=rubberband).
deps-bench:
	$(call install_missing,mpd mpc mpv)

# The static Foundation's temporary-file code calls mktemp, and the linker says so in a warning
# on every release link that tplayer cannot act on: it is kept off a newcomer's first screen.
build: deps-build
	@mkdir -p .build; echo "$(SWIFT) build $(RELEASE)"; \
	{ $(SWIFT) build $(RELEASE) 2>&1; echo $$? > .build/build-status; } | grep -v "the use of .mktemp. is dangerous"; \
	exit $$(cat .build/build-status)

run: build
	$(BIN) Resources/demo.m3u

# The gapless proof records a sound server in real time: it runs alone, after the rest, so that
# forty test processes sharing two cores do not starve its player of CPU.
# FormatLiveTests (FLAC, Vorbis, Opus and AAC lists played on a sound server) and HiResLiveTests
# (a 24-bit FLAC recorded bit for bit) SpeedLiveTests (two songs at 1.5) and VolumeLiveTests (a volume change heard at once) run alone after it for the same reason;
# `make test-live-formats` runs only them. BareSinkLiveTests and PipeWireLiveTests (every sample
# heard on a bare null sink, and on PipeWire, in real time) run alone, and SnapcastLiveTests (rooms
# of a real snapserver, recorded by snapclients, a busy machine among them) alone last.
LIVE_SUITES  := GaplessLiveTests FormatLiveTests HiResLiveTests SpeedLiveTests VolumeLiveTests BareSinkLiveTests PipeWireLiveTests \
                SnapcastLiveTests SeveralOutputsLiveTests

# Each pass says its time (.ci/pass). The front-end the remote-protocol test drives, mpyg321 from
# PyPI, is installed here into .build/frontends-venv, once, not by the test.
FRONTENDS    := .build/frontends-venv
PASS         := bash .ci/pass

test: deps-test $(FRONTENDS)/installed
	$(PASS) build $(SWIFT) build --build-tests
	$(PASS) tests $(SWIFT) test --skip-build $(foreach suite,$(LIVE_SUITES),--skip $(suite))
	$(PASS) gapless-live $(SWIFT) test --skip-build --filter GaplessLiveTests
	$(PASS) format-live $(SWIFT) test --skip-build --filter 'FormatLiveTests|HiResLiveTests|SpeedLiveTests|VolumeLiveTests'
	$(PASS) bare-sink-live $(SWIFT) test --skip-build --filter 'BareSinkLiveTests|PipeWireLiveTests'
	$(PASS) snapcast-live $(SWIFT) test --skip-build --no-parallel --filter 'SnapcastLiveTests|SeveralOutputsLiveTests'

$(FRONTENDS)/installed: | deps-test
	@/usr/bin/python3 -m venv $(FRONTENDS) && $(FRONTENDS)/bin/pip install -q mpyg321==2.2.4 && touch $@ \
		|| echo "warning: mpyg321 could not be installed from PyPI: its front-end test is skipped"

test-live-formats: deps-test
	$(SWIFT) build
	$(SWIFT) test --filter 'FormatLiveTests|HiResLiveTests|SpeedLiveTests|VolumeLiveTests'

bench: deps-test deps-bench build
	python3 bench/run.py $(BIN)

# The order the release link lays out what a start touches (Resources/start-order.txt), traced by
# valgrind from the release binary; the binary is linked again with it. Run it after a change to
# what a start runs: an older list only orders less.
start-order: deps-test build
	$(call install_missing,valgrind)
	python3 bench/start_order.py $(BIN) Resources/start-order.txt
	rm -f $(BIN)
	$(MAKE) build

FUZZ_SECONDS ?= 60
FUZZ_TARGETS := FuzzM3U FuzzPLS FuzzScript FuzzDuration FuzzSeekTarget FuzzRemote FuzzSavedSession FuzzQuery \
                FuzzRemoteSeek FuzzMprisTime FuzzTags FuzzCue FuzzConfig FuzzPrompt FuzzIcy FuzzIcyStream FuzzStreamURL FuzzServedList FuzzLyrics FuzzNowPlaying FuzzMpd

fuzz: deps-build
	bash Fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# Each sanitizer in its own build folder. Leaks that XCTest and Foundation's Process keep by
# design are suppressed by name (.sanitizers/lsan.supp), not leak checking as a whole.
SANITIZE_ENV := TPLAYER_SANITIZED=1 SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=suppressions=$(CURDIR)/.sanitizers/lsan.supp \
	TSAN_OPTIONS=halt_on_error=0 ASAN_OPTIONS=detect_leaks=1

test-sanitize: deps-test
	$(SANITIZE_ENV) $(SWIFT) test --sanitize=thread --scratch-path .build-tsan
	$(SANITIZE_ENV) $(SWIFT) test --sanitize=address --scratch-path .build-asan

# Where `make install` puts things: PREFIX is where they will be, DESTDIR (empty by default) a
# folder they are staged in first (a package's root). `make install` installs what `make` built
# (building it first only when there is none), so `make && sudo make install` never builds as
# root; `install-files` installs BIN as it is (the tests install a debug build).
PREFIX       ?= /usr/local
DESTDIR      ?=
BINDIR       := $(DESTDIR)$(PREFIX)/bin
MANDIR       := $(DESTDIR)$(PREFIX)/share/man/man1
APPDIR       := $(DESTDIR)$(PREFIX)/share/applications
BASHDIR      := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR       := $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR      := $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
UNITDIR      := $(DESTDIR)$(PREFIX)/lib/systemd/user
# Snapcast's stream plugin (snapserver runs it for tplayer's source: controlscript=PATH).
SNAPDIR      := $(DESTDIR)$(PREFIX)/share/tplayer/snapcast

install:
	@[ -x "$(BIN)" ] || $(MAKE) --no-print-directory build
	@$(MAKE) --no-print-directory install-files

install-files:
	@[ -x "$(BIN)" ] || { echo "$(BIN): not built; run make first"; exit 1; }
	install -d "$(BINDIR)" "$(MANDIR)" "$(APPDIR)" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)" "$(UNITDIR)" "$(SNAPDIR)"
	install -m 755 Resources/snapcast/tplayer-snapcast "$(SNAPDIR)/tplayer-snapcast"
	install -m 755 "$(BIN)" "$(BINDIR)/tplayer"
	sed 's#@PREFIX@#$(PREFIX)#g' Resources/tplayer.1 > "$(MANDIR)/tplayer.1"
	install -m 644 Resources/tplayer.desktop "$(APPDIR)/tplayer.desktop"
	sed 's#@PREFIX@#$(PREFIX)#g' Resources/tplayer.service > "$(UNITDIR)/tplayer.service"
	chmod 644 "$(UNITDIR)/tplayer.service"
	"$(BIN)" --generate-completion-script bash > "$(BASHDIR)/tplayer"
	"$(BIN)" --generate-completion-script zsh > "$(ZSHDIR)/_tplayer"
	"$(BIN)" --generate-completion-script fish > "$(FISHDIR)/tplayer.fish"
	chmod 644 "$(MANDIR)/tplayer.1" "$(BASHDIR)/tplayer" "$(ZSHDIR)/_tplayer" "$(FISHDIR)/tplayer.fish"

uninstall:
	rm -f "$(BINDIR)/tplayer" "$(MANDIR)/tplayer.1" "$(APPDIR)/tplayer.desktop" "$(BASHDIR)/tplayer" \
	      "$(ZSHDIR)/_tplayer" "$(FISHDIR)/tplayer.fish" "$(UNITDIR)/tplayer.service" "$(SNAPDIR)/tplayer-snapcast"
	-rmdir "$(SNAPDIR)" "$(DESTDIR)$(PREFIX)/share/tplayer" 2>/dev/null

clean:
	rm -rf .build .build-fuzz .build-tsan .build-asan bench/out
