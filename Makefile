# tplayer: `make run` plays the demo songs, `make test` runs the tests, `make bench` measures
# (decoding speed and memory, and a 100,000-entry playlist, each against mpg123).
# Each target first installs the Debian packages it needs that are missing (as root, or via sudo).

SWIFT        ?= swift
RELEASE      := -c release --static-swift-stdlib
BIN          := .build/release/tplayer
# Building: the C libraries and pkg-config. Testing and benchmarking add the reference player
# (mpg123), a real terminal (tmux), a sound server (pulseaudio), the song makers (sox, lame),
# and GNU time and python3 for the benchmarks.
BUILD_DEPS   := pkg-config libmpg123-dev libao-dev
TEST_DEPS    := $(BUILD_DEPS) mpg123 tmux pulseaudio sox lame time python3
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all build run test bench deps-build deps-test clean

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

build: deps-build
	$(SWIFT) build $(RELEASE)

run: build
	$(BIN) Resources/demo.m3u

test: deps-test
	$(SWIFT) build
	$(SWIFT) test

bench: deps-test build
	bash bench/run.sh $(BIN)
	python3 bench/playlist.py $(BIN)

clean:
	rm -rf .build bench/out
