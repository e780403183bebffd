// swift-tools-version:6.0
import PackageDescription

/// The engines' hot loops are generic code in TavoloCore specialised for each game in TavoloGames: let the
/// optimiser see across the two modules in release builds (measured: see README, performance).
let crossModuleOptimization: [SwiftSetting] = [
    .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))
]

/// The engines and their bots optimized in a debug build too: the rules' tests (the table simulation above all) spend
/// most of their time in bots' searches, 20–50× slower unoptimized. The engines are pure, and tested in both builds.
let enginesOptimized: [SwiftSetting] = crossModuleOptimization + [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "Tavolo",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "tavolo", targets: ["tavolo"]),
        .executable(name: "tavolod", targets: ["tavolod"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // The page a node serves its user (TavoloWeb): HTTP and WebSocket on loopback.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CDNSSD",
            pkgConfig: "avahi-compat-libdns_sd",
            providers: [.apt(["libavahi-compat-libdnssd-dev"])]
        ),
        .target(
            name: "TavoloCore", dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: crossModuleOptimization),
        .target(name: "TavoloGames", dependencies: ["TavoloCore"], swiftSettings: enginesOptimized),
        // The commit a build was told (`-Xcc -DTAVOLO_BUILD_COMMIT=…`, scripts/package): `--version` names it.
        .target(name: "CTavoloBuild"),
        .target(name: "TavoloProtocol", dependencies: ["TavoloCore", "CTavoloBuild"]),
        // The play screen: pure rendering and input of `tavolo play` (no control socket, no mesh).
        .target(name: "TavoloTerminal", dependencies: ["TavoloCore", "TavoloGames"]),
        .target(name: "TavoloDiscovery", dependencies: ["CDNSSD"]),
        // ChaCha20-Poly1305 of the transport's frames and datagrams (TavoloNoise.ChaChaPolyAEAD).
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        // Noise_XX_25519_ChaChaPoly_SHA256 as pure value types (no I/O), on swift-crypto (X25519, SHA-256, HKDF) and
        // libsodium (ChaCha20-Poly1305).
        .target(
            name: "TavoloNoise",
            dependencies: [
                "CSodium",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]),
        // The sealed deck (PROTOCOL.md §14): ristretto255 ElGamal cards, shuffles and Chaum–Pedersen proofs as pure
        // value types on libsodium's group operations, like TavoloNoise's handshake.
        .target(
            name: "TavoloSealed",
            dependencies: ["CSodium", "TavoloCore", .product(name: "Crypto", package: "swift-crypto")]),
        .target(name: "TavoloPacketLog", dependencies: ["TavoloProtocol", "TavoloCore"]),
        .target(
            name: "TavoloMesh",
            dependencies: [
                "TavoloProtocol", "TavoloNoise",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "TavoloTable",
            dependencies: [
                "TavoloCore", "TavoloProtocol", "TavoloSealed",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Finished games in SQLite (history, scores, achievements), their sync and checks (§11); the format itself is
        // TavoloRecordFormat's.
        .target(
            name: "TavoloRecords",
            dependencies: [
                // TavoloNoise: a record's signatures are bound to node ids by the identity key (§11.7).
                "TavoloCore", "TavoloProtocol", "TavoloTable", "TavoloRecordFormat", "TavoloNoise",
                // TavoloSealed: a sealed game's record is dealt again from its secrets (§14.12).
                "TavoloSealed",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The record format nodes share (§11.1: a record's body) and the reports a node's records give (history,
        // scores, a stored record): plain values, read by the records store, the client API and `tavolo show`.
        .target(name: "TavoloRecordFormat", dependencies: ["TavoloCore"]),
        // What clients speak to a node: typed requests, responses, events, and the client (no NIO, no Avahi).
        .target(
            name: "TavoloControl", dependencies: ["TavoloCore", "TavoloProtocol", "TavoloTable", "TavoloRecordFormat"]),
        .target(
            name: "TavoloDaemon",
            dependencies: [
                "TavoloCore", "TavoloGames", "TavoloProtocol", "TavoloDiscovery", "TavoloMesh", "TavoloTable",
                "TavoloPacketLog", "TavoloControl", "TavoloRecords", "TavoloRecordFormat", "TavoloWeb",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The page a node serves its user: assets compiled into the binary, HTTP + WebSocket on 127.0.0.1,
        // each WebSocket message a control request (the page is one more client of TavoloControl).
        .target(
            name: "TavoloWeb",
            dependencies: [
                "TavoloControl", "TavoloCore", "TavoloProtocol",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.embedInCode("Assets")]
        ),
        // Runs several tavolod processes and drives them through their control sockets (`tavolo simulate`).
        .target(
            name: "TavoloSimulation",
            dependencies: ["TavoloControl", "TavoloCore", "TavoloProtocol", "TavoloTable", "TavoloRecordFormat"]),
        // `tavolo doctor`: facts from the node (control socket), from Avahi's own tools (run as commands), from the
        // interfaces and the peers' ports, and the verdicts drawn from them. Links no NIO and no Avahi.
        .target(name: "TavoloDoctor", dependencies: ["TavoloControl"]),
        // A client: links no mesh, no NIO and no Avahi.
        .executableTarget(
            name: "tavolo",
            dependencies: [
                "TavoloCore", "TavoloGames", "TavoloProtocol", "TavoloTable", "TavoloControl", "TavoloSimulation",
                "TavoloPacketLog", "TavoloTerminal", "TavoloDoctor", "TavoloRecordFormat", "TavoloSealed",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "tavolod",
            dependencies: [
                "TavoloDaemon", "TavoloControl", "TavoloWeb", "TavoloSealed",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // In-process mesh measurements for scripts/bench mesh.
        .executableTarget(
            name: "tavolo-bench",
            dependencies: [
                "TavoloCore", "TavoloMesh", "TavoloNoise", "TavoloProtocol",
                // The game journal's move line (MicroTimings.swift), as a node writes it; six table directories
                // playing in one process (TableMachineTimings.swift).
                "TavoloTable", "TavoloGames",
                // The crypto and message bytes of a sealed deal and move (SealedDealTimings.swift).
                "TavoloSealed",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                // The NIO echo baseline (NIOPingPong.swift): what the event loop alone costs.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Bot strength against outside engines (GRhino over GTP) and bot speed, for scripts/bench othello-vs-grhino.
        .executableTarget(
            name: "tavolo-bots-bench",
            dependencies: [
                "TavoloCore", "TavoloGames", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: crossModuleOptimization
        ),
        // Records figures for scripts/bench records: inserts, leaderboard queries, sync between two mesh nodes.
        .executableTarget(
            name: "tavolo-records-bench",
            dependencies: [
                "TavoloRecords", "TavoloControl", "TavoloCore", "TavoloGames", "TavoloMesh", "TavoloProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Helpers every test target shares: waits that fail when they time out, typed event reads, running a command.
        .target(
            name: "TavoloTestSupport",
            dependencies: [
                "TavoloCore", "TavoloTable", "TavoloProtocol", "TavoloNoise", "TavoloSealed",
                .product(name: "Crypto", package: "swift-crypto"),
            ], path: "Tests/TavoloTestSupport"),
        .testTarget(name: "TavoloCoreTests", dependencies: ["TavoloCore", "TavoloTestSupport"]),
        .testTarget(name: "TavoloGamesTests", dependencies: ["TavoloCore", "TavoloGames", "TavoloTestSupport"]),
        .testTarget(
            name: "TavoloTerminalTests",
            dependencies: ["TavoloTerminal", "TavoloCore", "TavoloGames", "TavoloTestSupport"]),
        .testTarget(
            name: "TavoloTableTests",
            dependencies: [
                "TavoloTable", "TavoloCore", "TavoloGames", "TavoloProtocol", "TavoloTestSupport",
                // The record of a game whose seats changed hands, checked as a peer would (§11.4).
                "TavoloRecords",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "TavoloProtocolTests", dependencies: ["TavoloProtocol", "TavoloCore", "TavoloTestSupport"]),
        .testTarget(
            name: "TavoloRecordsTests",
            dependencies: [
                "TavoloRecords", "TavoloRecordFormat", "TavoloControl", "TavoloCore", "TavoloGames", "TavoloTable",
                "TavoloProtocol", "TavoloTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .testTarget(
            name: "TavoloMeshTests",
            dependencies: [
                "TavoloMesh", "TavoloProtocol", "TavoloTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTestUtils", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "TavoloDiscoveryTests", dependencies: ["TavoloDiscovery", "TavoloTestSupport"]),
        .testTarget(
            name: "TavoloDoctorTests",
            dependencies: ["TavoloDoctor", "TavoloControl", "TavoloProtocol", "TavoloTestSupport"]),
        .testTarget(
            name: "TavoloWebTests", dependencies: ["TavoloWeb", "TavoloControl", "TavoloTable", "TavoloTestSupport"]),
        .testTarget(name: "TavoloSealedTests", dependencies: ["TavoloSealed", "TavoloGames", "TavoloTestSupport"]),
        .testTarget(
            name: "TavoloNoiseTests",
            dependencies: ["TavoloNoise", "TavoloTestSupport", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(
            name: "TavoloPacketLogTests",
            dependencies: [
                "TavoloPacketLog", "TavoloProtocol", "TavoloMesh", "TavoloDaemon", "TavoloTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The seeded fuzzer (scripts/fuzz): frames, handshakes, table messages into a directory, control lines.
        .testTarget(
            name: "TavoloFuzzTests",
            dependencies: [
                "TavoloMesh", "TavoloDaemon", "TavoloProtocol", "TavoloTable", "TavoloControl", "TavoloCore",
                "TavoloGames", "TavoloSealed", "TavoloTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]
        ),
        // The daemon's parts alone: handlers in an embedded channel, no process.
        .testTarget(
            name: "TavoloDaemonTests",
            dependencies: [
                "TavoloDaemon", "TavoloControl", "TavoloCore", "TavoloTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Real tavolod processes and the real avahi-daemon; finds tavolod next to the test bundle.
        .testTarget(
            name: "TavoloIntegrationTests",
            dependencies: [
                "TavoloDaemon", "TavoloMesh", "TavoloProtocol", "TavoloTable", "TavoloControl", "TavoloTestSupport",
                "TavoloCore", "TavoloSimulation",
                "TavoloRecords", "TavoloRecordFormat", "TavoloGames",
                // `tavolo doctor --json` on the LAN test hosts (DoctorLanTests).
                "TavoloDoctor",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
    ]
)
