import Files
import Glibc
import PlayerApp
import PlayerCore

/// MPD's protocol served on sockets, beside the keys: each client's bytes framed as MPD frames
/// them (`MpdConnection`), its commands answered (`MpdResponder`, through the same door as the
/// keys), its `idle` woken by the player's changes, and what it is sent queued until it reads
/// it: a client that stops reading is cut off at MPD's 8 MiB, and no client ever blocks the
/// main loop.
public final class MpdServer: SocketService {
    /// What the server says first: the protocol version it speaks (MPD 0.23's).
    public static let greeting = "OK MPD 0.23.5\n"
    /// A client whose unread replies pass this is cut off (MPD's `max_output_buffer_size`).
    public static let maximumOutput = 8 << 20

    public struct Settings: Sendable {
        public var addresses: [SocketAddress]
        /// `password` and what it permits, as MPD's `password "SECRET@read,add"`.
        public var passwords: [(secret: String, permission: MpdCommand.Permission)]
        public var maximumClients: Int

        public init(addresses: [SocketAddress], passwords: [(secret: String, permission: MpdCommand.Permission)] = [],
                    maximumClients: Int = 100) {
            (self.addresses, self.passwords, self.maximumClients) = (addresses, passwords, maximumClients)
        }

        /// What a client may do before it gives a password: everything with none set, else
        /// nothing but what needs no permission (MPD's `default_permissions` unset).
        var initialPermission: MpdCommand.Permission { passwords.isEmpty ? .all : [] }
    }

    /// One client: its socket, how its bytes are framed, what waits to be sent, and its own
    /// settings (permission, idle, subscriptions).
    final class Client {
        let socket: StreamSocket
        var connection = MpdConnection()
        var output: [UInt8] = []
        var sent = 0
        /// What its lines asked for and is not yet done: run while its replies are taken.
        var steps: ArraySlice<MpdConnection.Step> = []
        /// Its next command reads the catalog, which is not read yet: it waits for it.
        var waitsForCatalog = false
        /// A reply being made as it reads: nothing else runs for it until it is sent.
        var stream: MpdStream?
        var state: MpdClientState
        /// Changes since its last `idle` answered (MPD's `idle_flags`).
        var pending: MpdIdle = []
        /// Waiting in `idle` for these.
        var waiting: MpdIdle?
        var closing = false

        init(socket: StreamSocket, state: MpdClientState) {
            self.socket = socket
            self.state = state
        }

        var unsent: Int { output.count - sent }
    }

    private let settings: Settings
    private var listeners: [ListeningSocket]
    private var clients: [Int32: Client] = [:]
    private let responder: MpdResponder

    private init(settings: Settings, listeners: [ListeningSocket], responder: MpdResponder) {
        self.settings = settings
        self.listeners = listeners
        self.responder = responder
        responder.updates.changed = { [weak self] in self?.notify(.update) }
        responder.storedPlaylistsChanged = { [weak self] in self?.notify(.storedPlaylist) }
        responder.stickersChanged = { [weak self] in self?.notify(.sticker) }
        responder.catalogs.arrived = { [weak self] in self?.catalogArrived() }
        responder.catalogs.read()
    }

    /// Listens on every address of `settings`; the first that cannot be listened on, and why
    /// (`ADDRESS: reason`).
    public static func start(_ settings: Settings, responder: MpdResponder) -> Result<MpdServer, SocketProblem> {
        var listeners: [ListeningSocket] = []
        for address in settings.addresses {
            switch ListeningSocket.listen(on: address) {
            case .success(let listener): listeners.append(listener)
            case .failure(let problem):
                listeners.forEach { $0.close() }
                return .failure(SocketProblem("\(address): \(problem.reason)"))
            }
        }
        return .success(MpdServer(settings: settings, listeners: listeners, responder: responder))
    }

    public var addresses: [SocketAddress] { listeners.map(\.address) }
    public var clientCount: Int { clients.count }
    /// The library changed and the catalog is being read again: clients are told when it is read.
    private var databaseChangePending = false
    var everyClient: Dictionary<Int32, Client>.Values { clients.values }
    /// Every channel some client is subscribed to.
    var channelNames: Set<String> { clients.values.reduce(into: []) { $0.formUnion($1.state.subscriptions) } }

    public var watched: [pollfd] {
        var fds = listeners.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        for (descriptor, client) in clients {
            // A client with replies or commands waiting is not read from until they are done;
            // its commands run on as it can take their replies (writable: at once, if it reads).
            // One waiting for the catalog is woken when it comes (closing still noticed).
            let busy = client.unsent > 0 || !client.steps.isEmpty || client.stream != nil
            let events = client.waitsForCatalog ? 0 : busy ? Int16(POLLOUT) : Int16(POLLIN)
            fds.append(pollfd(fd: descriptor, events: events, revents: 0))
        }
        return fds
    }

    public func process(_ ready: [pollfd]) {
        for fd in ready {
            if let listener = listeners.first(where: { $0.descriptor == fd.fd }) {
                accept(from: listener)
            } else if let client = clients[fd.fd] {
                if fd.revents & Int16(POLLOUT) != 0 {
                    flush(client)
                    work(client)
                }
                if fd.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0, client.unsent == 0 { read(client) }
                if fd.revents & Int16(POLLERR | POLLNVAL) != 0 { drop(client) }
            }
        }
    }

    public func changed(_ status: PlayerStatus, _ changes: StatusChanges) {
        responder.notePlaying(status.playback == .playing)
        var flags = MpdIdle(changes)
        if changes.contains(.database) {
            // Clients hear of it once the catalog they will read has it (as MPD's idle follows
            // its database's update).
            responder.libraryChanged()
            if !responder.catalogs.isKnown || responder.catalogs.reading {
                flags.remove(.database)
                databaseChangePending = true
            }
        }
        notify(flags)
    }

    /// Tells every client that `flags` changed: those waiting for them are answered now.
    func notify(_ flags: MpdIdle, only descriptors: Set<Int32>? = nil) {
        guard !flags.isEmpty else { return }
        for (descriptor, client) in clients where descriptors?.contains(descriptor) ?? true {
            client.pending.formUnion(flags)
            wake(client)
        }
    }

    /// Stops listening and closes every client.
    public func close() {
        listeners.forEach { $0.close() }
        listeners = []
        clients.values.forEach { $0.socket.close() }
        clients = [:]
    }

    private func accept(from listener: ListeningSocket) {
        while let socket = listener.accept() {
            // Past the limit, a connection is taken and closed at once (MPD: "Max connections reached").
            guard clients.count < settings.maximumClients else {
                socket.close()
                continue
            }
            let client = Client(socket: socket, state: MpdClientState(permission: settings.initialPermission, isLocal: socket.isLocal))
            clients[socket.descriptor] = client
            send(Self.greeting, to: client)
        }
    }

    private func read(_ client: Client) {
        switch client.socket.read() {
        case .waiting: return
        case .ended: return drop(client)
        case .bytes(let bytes):
            client.steps += client.connection.receive(bytes)
            work(client)
        }
    }

    /// A client's replies waiting past this are sent before more of its commands run: one
    /// client's flood of commands is answered as it reads, not all at once on the main loop.
    static let outputBeforeMore = 256 << 10
    /// The longest one client's commands run in one turn of the main loop: the rest wait for
    /// the next turn, after the keys, the engine and the other clients.
    static let turn = Duration.milliseconds(4)

    /// Runs what the client asked for (a streamed reply first), until it has this much to read
    /// or its turn is over.
    private func work(_ client: Client) {
        let started = ContinuousClock.now
        while clients[client.socket.descriptor] != nil, !client.closing, started.duration(to: .now) < Self.turn {
            if let stream = client.stream {
                while !stream.isDone, client.unsent < Self.outputBeforeMore, started.duration(to: .now) < Self.turn {
                    stream.fill(&client.output, limit: 64 << 10)
                }
                guard stream.isDone else { return flush(client) }
                client.stream = nil
                send("OK\n", to: client)
                continue
            }
            guard let step = client.steps.first, client.unsent < Self.outputBeforeMore else { return }
            if case .run(let batch) = step, !responder.catalogs.isKnown, Self.readsCatalog(batch) {
                client.waitsForCatalog = true
                return
            }
            client.steps.removeFirst()
            switch step {
            case .nothing: break
            case .reply(let text):
                client.waiting = nil
                send(text, to: client)
            case .close: return drop(client)
            case .run(let batch): run(batch, for: client)
            }
        }
    }

    private func run(_ batch: MpdConnection.Batch, for client: Client) {
        // `idle` alone waits; it is answered when something it waits for changes.
        if !batch.isList, let line = batch.lines.first, case .success(let request) = MpdRequest.parse(line), request.name == "idle",
           case .success = MpdCommand.checked(request, permission: client.state.permission) {
            var flags: MpdIdle = []
            for name in request.arguments {
                guard let flag = MpdIdle(name: name) else {
                    return send(MpdAck(.argument, "Unrecognized idle event: \(name)", command: "idle").line, to: client)
                }
                flags.insert(flag)
            }
            client.waiting = flags.isEmpty ? .all : flags
            client.connection.isIdle = true
            return wake(client)
        }
        // A large reply, alone, is made as the client reads it.
        if !batch.isList, let line = batch.lines.first, case .success(let request) = MpdRequest.parse(line),
           MpdResponder.streamed.contains(request.name), case .success(let command) = MpdCommand.checked(request, permission: client.state.permission),
           let streamed = responder.stream(command.name, request.arguments, client: client.state) {
            switch streamed {
            case .failure(var ack):
                ack.command = command.name
                return send(ack.line, to: client)
            case .success(let stream):
                client.stream = stream
                return
            }
        }
        var closes = false
        let (text, refused) = MpdConnection.answerBytes(batch, permission: client.state.permission) { command, request in
            switch command.name {
            case "close":
                closes = true
                return .success([])
            case "kill":
                // MPD says nothing to `kill`: the server ends.
                closes = true
                responder.quit()
                return .success([])
            case "albumart", "readpicture":
                return responder.picture(command.name, request.arguments, client: client.state)
            default:
                return execute(command, request, for: client).map { Array($0.utf8) }
            }
        }
        if closes, !batch.isList { return drop(client) }
        send(text, to: client)
        if refused || closes { client.closing = true }
    }

    /// Whether a line of `batch` names a command that reads the catalog.
    static func readsCatalog(_ batch: MpdConnection.Batch) -> Bool {
        batch.lines.contains { line in
            let name = line.prefix { $0 != 0x20 && $0 != 0x09 }
            return MpdResponder.readsCatalog.contains(String(decoding: name, as: UTF8.self))
        }
    }

    /// The catalog is read: the clients waiting for it go on.
    private func catalogArrived() {
        if databaseChangePending, !responder.catalogs.reading {
            databaseChangePending = false
            notify(.database)
        }
        for client in clients.values where client.waitsForCatalog {
            client.waitsForCatalog = false
            work(client)
        }
    }

    /// Answers an idle client when something it waits for has changed.
    private func wake(_ client: Client) {
        guard let waiting = client.waiting, !client.pending.intersection(waiting).isEmpty else { return }
        let told = client.pending.intersection(waiting)
        client.pending = []
        client.waiting = nil
        client.connection.isIdle = false
        send(told.lines + "OK\n", to: client)
    }

    func send(_ text: String, to client: Client) {
        send(Array(text.utf8), to: client)
    }

    func send(_ bytes: [UInt8], to client: Client) {
        if client.sent > 0, client.sent == client.output.count {
            client.output.removeAll(keepingCapacity: true)
            client.sent = 0
        }
        client.output += bytes
        guard client.unsent <= Self.maximumOutput else { return drop(client) }
        flush(client)
    }

    private func flush(_ client: Client) {
        while client.unsent > 0 {
            let written = client.output.withUnsafeBytes { client.socket.write(UnsafeRawBufferPointer(rebasing: $0[client.sent...])) }
            guard let written else { return drop(client) }
            if written == 0 { return }
            client.sent += written
        }
        client.output.removeAll(keepingCapacity: client.output.count <= 65536)
        client.sent = 0
        if client.closing { drop(client) }
    }

    private func drop(_ client: Client) {
        let descriptor = client.socket.descriptor
        guard clients[descriptor] != nil else { return }
        clients[descriptor] = nil
        client.socket.close()
    }

    /// Runs one command for `client`: those about the connection itself here, the rest by the
    /// responder.
    private func execute(_ command: MpdCommand, _ request: MpdRequest, for client: Client) -> Result<String, MpdAck> {
        switch command.name {
        case "password":
            guard let permission = permission(for: request.arguments[0]) else { return .failure(MpdAck(.password, "incorrect password")) }
            client.state.permission = permission
            return .success("")
        case "binarylimit":
            return MpdArguments.unsigned(request.arguments[0]).flatMap { limit in
                guard limit >= 64 else { return .failure(MpdAck(.argument, "Value too small")) }
                client.state.binaryLimit = limit
                return .success("")
            }
        case "idle", "noidle", "ping", "clearerror": return .success("")
        case "subscribe", "unsubscribe", "channels", "readmessages", "sendmessage":
            return message(command.name, request.arguments, for: client)
        default:
            return responder.respond(command, request, client: &client.state)
        }
    }

    /// The permission `password` gives, compared with each set in time that does not depend on
    /// where they differ.
    private func permission(for password: String) -> MpdCommand.Permission? {
        var found: MpdCommand.Permission?
        for (secret, permission) in settings.passwords where Self.same(Array(secret.utf8), Array(password.utf8)) {
            found = permission
        }
        return found
    }

    static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0 && a.count == b.count
    }
}
