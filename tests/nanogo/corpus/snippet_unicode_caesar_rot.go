shift := func(r rune, k int) rune {
	switch {
	case unicode.IsUpper(r):
		return 'A' + (r-'A'+rune(k)+26)%26
	case unicode.IsLower(r):
		return 'a' + (r-'a'+rune(k)+26)%26
	}
	return r
}
msg := "Hello, World! Ünïcode stays."
var enc []rune
for _, r := range msg {
	if r < 128 {
		enc = append(enc, shift(r, 13))
	} else {
		enc = append(enc, r)
	}
}
fmt.Println(string(enc))
fmt.Println(unicode.IsUpper('Ü'), unicode.ToLower('Ü') == 'ü', string(unicode.ToUpper('ï')))
