import Glibc

/// Waiting on descriptors (`poll`), for the main loop, the background work and the library's
/// watcher: every wait of the program goes through here.
public enum Waiting {
    /// Waits until one of `descriptors` is ready or `milliseconds` pass (-1: no limit): how many
    /// are ready (each's `revents` set), 0 when the time passed, -1 with errno set.
    public static func poll(_ descriptors: inout [pollfd], milliseconds: Int32) -> Int32 {
        Glibc.poll(&descriptors, nfds_t(descriptors.count), milliseconds)
    }

    /// Waits until `descriptor` can be read from, however long that takes (a signal's wake-up
    /// waits again); false when it cannot be waited on.
    public static func untilReadable(_ descriptor: Int32) -> Bool {
        var ready = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        while true {
            if poll(&ready, milliseconds: -1) >= 0 { return true }
            if errno != EINTR { return false }
        }
    }
}

/// The size of a terminal.
public enum TerminalSize {
    /// The terminal `descriptor` is: its columns, its rows when it says, and a cell's size in
    /// pixels when it says; `nil` when it is not one.
    public static func of(_ descriptor: Int32) -> (columns: Int, rows: Int?, cell: (width: Int, height: Int)?)? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        let cell = size.ws_row > 0 && size.ws_xpixel > 0 && size.ws_ypixel > 0
            ? (Int(size.ws_xpixel) / Int(size.ws_col), Int(size.ws_ypixel) / Int(size.ws_row)) : nil
        return (Int(size.ws_col), size.ws_row > 0 ? Int(size.ws_row) : nil, cell)
    }
}
