import Files
import Library

/// The library of a run that plays, opened once, when first asked (the library view at start,
/// the first song heard, an MPRIS client's first look): one pool for them all, and none for a
/// run that asks for none.
public final class SharedLibrary: @unchecked Sendable {
    // @unchecked: `opened` is only touched behind its lock; `open` is called behind it.
    private let opened = Locked<LibraryDatabase??>(nil)
    private let open: () -> LibraryDatabase?

    /// `open` opens the library when there is one (`nil`: none, or it cannot be opened).
    public init(open: @escaping () -> LibraryDatabase?) {
        self.open = open
    }

    public var database: LibraryDatabase? {
        opened.update { opened in
            if opened == nil { opened = .some(open()) }
            return opened ?? nil
        }
    }

    /// A library made since it was first asked for (`:scan` made one) is opened when next
    /// asked for.
    public func lookAgain() {
        opened.update { opened in
            if case .some(nil) = opened { opened = nil }
        }
    }
}
