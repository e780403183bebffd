import TavoloControl

/// The page's files, compiled into the binary (`resources: [.embedInCode("Assets")]`): an installed `tavolod`
/// needs no resource bundle next to it, and the page works with no internet. SwiftPM flattens the folder into
/// `PackageResources.<file>_<ext>`, so every file name is unique and listed here by its URL path.
enum WebAssets {
    struct Asset {
        let bytes: [UInt8]
        let contentType: String
    }

    static let html = "text/html; charset=utf-8"
    static let css = "text/css; charset=utf-8"
    static let js = "text/javascript; charset=utf-8"
    static let svg = "image/svg+xml"

    static let files: [String: Asset] = [
        "/": Asset(bytes: PackageResources.index_html, contentType: html),
        "/index.html": Asset(bytes: PackageResources.index_html, contentType: html),
        "/tavolo.css": Asset(bytes: PackageResources.tavolo_css, contentType: css),
        "/favicon.svg": Asset(bytes: PackageResources.favicon_svg, contentType: svg),
        "/js/app.js": Asset(bytes: PackageResources.app_js, contentType: js),
        "/js/node.js": Asset(bytes: PackageResources.node_js, contentType: js),
        "/js/lobby.js": Asset(bytes: PackageResources.lobby_js, contentType: js),
        "/js/table.js": Asset(bytes: PackageResources.table_js, contentType: js),
        "/js/chat.js": Asset(bytes: PackageResources.chat_js, contentType: js),
        "/js/dom.js": Asset(bytes: PackageResources.dom_js, contentType: js),
        "/js/names.js": Asset(bytes: PackageResources.names_js, contentType: js),
        // Made from the one list of control error codes, so the page compares with what the node answers.
        "/js/codes.js": Asset(bytes: codesModule, contentType: js),
        // One module per game screen (`games/<game>.js`, registered in js/games.js).
        "/js/games.js": Asset(bytes: PackageResources.games_js, contentType: js),
        "/js/games/spirits.js": Asset(bytes: PackageResources.spirits_js, contentType: js),
        "/js/games/briscola.js": Asset(bytes: PackageResources.briscola_js, contentType: js),
        "/js/games/othello.js": Asset(bytes: PackageResources.othello_js, contentType: js),
        "/js/games/fifteen.js": Asset(bytes: PackageResources.fifteen_js, contentType: js),
    ]

    /// `export const codes = {controlBadRequest: "control/bad-request", …}`: `ControlErrorCode`, every case.
    static let codesModule: [UInt8] = {
        let members = ControlErrorCode.allCases.map { "  \($0): \"\($0.rawValue)\"," }
        let text =
            "// Made by tavolod from ControlErrorCode (Sources/TavoloControl): the codes a control response carries.\n"
            + "export const codes = Object.freeze({\n\(members.joined(separator: "\n"))\n});\n"
        return Array(text.utf8)
    }()
}
