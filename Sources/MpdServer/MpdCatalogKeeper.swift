import Library
import PlayerCore

/// The catalog the commands read (the library as MPD's clients see it): read off the main loop
/// at start and again after each change of the library, the one before serving meanwhile; a
/// read asked for while one is under way follows it.
final class MpdCatalogKeeper {
    private let library: () -> LibraryDatabase?
    private let roots: MpdRoots
    /// Reads a catalog off the main loop, then hands it over on it (`nil`: read on it, when asked).
    private let load: ((_ done: @escaping (MpdCatalog?) -> Void) -> Void)?
    /// The latest catalog read.
    private(set) var cached: MpdCatalog?
    /// A read is under way, and another was asked for meanwhile.
    private(set) var reading = false
    private var again = false
    /// The library could not be read (there is none): its commands say so.
    private var absent = false
    /// Told when a catalog has been read (the clients waiting for one go on).
    var arrived: () -> Void = {}

    init(library: @escaping () -> LibraryDatabase?, roots: MpdRoots, load: ((_ done: @escaping (MpdCatalog?) -> Void) -> Void)?) {
        (self.library, self.roots, self.load) = (library, roots, load)
    }

    /// The latest read (while a newer one is read off the main loop, the one before). Read here,
    /// on the main loop, only where nothing reads it off.
    func catalog() -> MpdCatalog? {
        if let cached { return cached }
        guard load == nil, !absent else { return nil }
        cached = MpdCatalog.read(library(), roots: roots)
        absent = cached == nil
        return cached
    }

    /// Whether a command that reads the catalog can run now: one is read, or none can be.
    var isKnown: Bool { cached != nil || absent || load == nil }

    /// Reads the catalog again off the main loop (at start, and after the library changed).
    func read() {
        guard let load else { return cached = nil }
        guard !reading else { return again = true }
        reading = true
        load { [weak self] catalog in
            guard let self else { return }
            self.reading = false
            self.cached = catalog
            self.absent = catalog == nil
            if self.again {
                self.again = false
                self.read()
            }
            self.arrived()
        }
    }
}
