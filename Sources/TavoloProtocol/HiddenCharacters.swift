/// Characters that change how text around them reads without being seen (PROTOCOL.md §4.1, §12): bidirectional
/// overrides, embeddings and isolates, and invisible or zero-width characters. A node name with one is refused; chat
/// cleaning removes them. With them `evil\u{202E}gnp.exe` shows as `evilexe.png`, and `ann\u{200B}` looks like `ann`.
public enum HiddenCharacters {
    /// The ranges, inclusive.
    static let ranges: [ClosedRange<UInt32>] = [
        0x00AD...0x00AD,  // soft hyphen
        0x034F...0x034F,  // combining grapheme joiner
        0x061C...0x061C,  // Arabic letter mark
        0x115F...0x1160,  // Hangul fillers
        0x17B4...0x17B5,  // Khmer inherent vowels
        0x180B...0x180F,  // Mongolian variation selectors and vowel separator
        0x200B...0x200F,  // zero width space, non-joiner, joiner; left-to-right and right-to-left marks
        0x202A...0x202E,  // bidirectional embeddings and overrides
        0x2060...0x206F,  // word joiner, invisible operators, bidirectional isolates, deprecated format characters
        0x3164...0x3164,  // Hangul filler
        0xFEFF...0xFEFF,  // zero width no-break space (byte order mark)
        0xFFA0...0xFFA0,  // half-width Hangul filler
        0xFFF9...0xFFFB,  // interlinear annotation
        0x1BCA0...0x1BCA3,  // shorthand format controls
        0x1D173...0x1D17A,  // musical symbol format controls
        0xE0000...0xE007F,  // tags
    ]

    public static func contains(_ s: Unicode.Scalar) -> Bool { ranges.contains { $0.contains(s.value) } }
}
