"""What the allowed packages export in real Go, so a name nanoGo lacks is not reported as if Go lacked it.

`undefined: strings.Reverse` is Go's own message for a name Go does not have; for math.Gamma, which Go 1.19
has and nanoGo does not, or errors.Join, which came after Go 1.19, nanoGo says so instead.
"""

from __future__ import annotations

GO119 = {
    "errors": "As Is New Unwrap",
    "fmt": "Append Appendf Appendln Errorf Formatter Fprint Fprintf Fprintln Fscan Fscanf Fscanln GoStringer "
           "Print Printf Println Scan ScanState Scanf Scanln Scanner Sprint Sprintf Sprintln Sscan Sscanf "
           "Sscanln State Stringer",
    "math": "Abs Acos Acosh Asin Asinh Atan Atan2 Atanh Cbrt Ceil Copysign Cos Cosh Dim E Erf Erfc Erfcinv "
            "Erfinv Exp Exp2 Expm1 FMA Float32bits Float32frombits Float64bits Float64frombits Floor Frexp "
            "Gamma Hypot Ilogb Inf IsInf IsNaN J0 J1 Jn Ldexp Lgamma Ln10 Ln2 Log Log10 Log10E Log1p Log2 "
            "Log2E Logb Max MaxFloat32 MaxFloat64 MaxInt MaxInt16 MaxInt32 MaxInt64 MaxInt8 MaxUint "
            "MaxUint16 MaxUint32 MaxUint64 MaxUint8 Min MinInt MinInt16 MinInt32 MinInt64 MinInt8 Mod Modf "
            "NaN Nextafter Nextafter32 Phi Pi Pow Pow10 Remainder Round RoundToEven Signbit Sin Sincos Sinh "
            "SmallestNonzeroFloat32 SmallestNonzeroFloat64 Sqrt Sqrt2 SqrtE SqrtPhi SqrtPi Tan Tanh Trunc "
            "Y0 Y1 Yn",
    "sort": "Find Float64Slice Float64s Float64sAreSorted IntSlice Interface Ints IntsAreSorted IsSorted "
            "Reverse Search SearchFloat64s SearchInts SearchStrings Slice SliceIsSorted SliceStable Sort "
            "Stable StringSlice Strings StringsAreSorted",
    "strconv": "AppendBool AppendFloat AppendInt AppendQuote AppendQuoteRune AppendQuoteRuneToASCII "
               "AppendQuoteRuneToGraphic AppendQuoteToASCII AppendQuoteToGraphic AppendUint Atoi "
               "CanBackquote ErrRange ErrSyntax FormatBool FormatComplex FormatFloat FormatInt FormatUint "
               "IntSize IsGraphic IsPrint Itoa NumError ParseBool ParseComplex ParseFloat ParseInt ParseUint "
               "Quote QuoteRune QuoteRuneToASCII QuoteRuneToGraphic QuoteToASCII QuoteToGraphic "
               "QuotedPrefix Unquote UnquoteChar",
    "strings": "Builder Clone Compare Contains ContainsAny ContainsRune Count Cut EqualFold Fields FieldsFunc "
               "HasPrefix HasSuffix Index IndexAny IndexByte IndexFunc IndexRune Join LastIndex LastIndexAny "
               "LastIndexByte LastIndexFunc Map NewReader NewReplacer Reader Repeat Replace ReplaceAll "
               "Replacer Split SplitAfter SplitAfterN SplitN Title ToLower ToLowerSpecial ToTitle "
               "ToTitleSpecial ToUpper ToUpperSpecial ToValidUTF8 Trim TrimFunc TrimLeft TrimLeftFunc "
               "TrimPrefix TrimRight TrimRightFunc TrimSpace TrimSuffix",
    "sync": "Cond Locker Map Mutex NewCond Once Pool RWMutex WaitGroup",
    "unicode": "ASCII_Hex_Digit AzeriCase C CaseRange CaseRanges Categories Cc Cf Co Common Cs "
               "Cyrillic Dash Digit FoldCategory FoldScript GraphicRanges Greek Han Hangul Hebrew "
               "Hex_Digit Hiragana Ideographic In Inherited Is IsControl IsDigit IsGraphic IsLetter IsLower "
               "IsMark IsNumber IsOneOf IsPrint IsPunct IsSpace IsSymbol IsTitle IsUpper Katakana L Latin "
               "Letter Ll Lm Lo Lower LowerCase Lt Lu M MaxASCII MaxCase MaxLatin1 MaxRune Mark Mc Me Mn N Nd "
               "Nl No Number Other P Pc Pd Pe Pf Pi Po PrintRanges Properties Ps Punct "
               "Quotation_Mark Range16 Range32 RangeTable ReplacementChar S Sc Scripts SimpleFold Sk Sm So "
               "Space SpecialCase Symbol Thai Title TitleCase To ToLower ToTitle ToUpper TurkishCase Upper "
               "UpperCase Version White_Space Z Zl Zp Zs Arabic Devanagari",
    "unicode/utf8": "AppendRune DecodeLastRune DecodeLastRuneInString DecodeRune DecodeRuneInString "
                    "EncodeRune FullRune FullRuneInString MaxRune RuneCount RuneCountInString RuneError "
                    "RuneLen RuneSelf RuneStart UTFMax Valid ValidRune ValidString",
}
GO119 = {path: frozenset(names.split()) for path, names in GO119.items()}

# Names of these packages that came after Go 1.19, and the version that brought them.
LATER = {
    "errors": {"Join": "1.20", "ErrUnsupported": "1.21"},
    "fmt": {"FormatString": "1.20"},
    "strings": {"CutPrefix": "1.20", "CutSuffix": "1.20", "ContainsFunc": "1.21", "Lines": "1.24",
                "SplitSeq": "1.24", "SplitAfterSeq": "1.24", "FieldsSeq": "1.24", "FieldsFuncSeq": "1.24"},
    "sync": {"OnceFunc": "1.21", "OnceValue": "1.21", "OnceValues": "1.21"},
}

# Built-ins and packages of later Go.
LATER_BUILTINS = {"min": "the min and max built-ins came in Go 1.21", "max": "the min and max built-ins came in Go 1.21",
                  "clear": "the clear built-in came in Go 1.21"}
LATER_PACKAGES = {"slices": "1.21", "maps": "1.21", "cmp": "1.21", "iter": "1.23", "unique": "1.23"}


def missing_member(path: str, pkg_name: str, name: str) -> str:
    """The message for pkg.name that nanoGo's package lacks."""
    version = LATER.get(path, {}).get(name)
    if version is not None:
        return f"undefined: {pkg_name}.{name} (nanoGo follows Go 1.19; {pkg_name}.{name} came in Go {version})"
    if name in GO119.get(path, ()):
        return f"{pkg_name}.{name} is not available in nanoGo (Go 1.19 has it; nanoGo's {path} package does not)"
    return f"undefined: {pkg_name}.{name}"


def undefined(name: str) -> str:
    """The message for an undeclared name: a built-in of later Go says so."""
    hint = LATER_BUILTINS.get(name)
    return f"undefined: {name} (nanoGo follows Go 1.19; {hint})" if hint else f"undefined: {name}"


def forbidden_import(path: str, allowed) -> str:
    """The message for an import nanoGo refuses: a package of later Go says so."""
    later = LATER_PACKAGES.get(path)
    why = f"; nanoGo follows Go 1.19, and {path} came in Go {later}" if later else ""
    return f"package {path} is not allowed in nanoGo (allowed: {', '.join(sorted(allowed))}{why})"
