s := "Hello, 世界! 123"
letters, digits, others := 0, 0, 0
for _, r := range s {
	switch {
	case unicode.IsLetter(r):
		letters++
	case unicode.IsDigit(r):
		digits++
	default:
		others++
	}
}
fmt.Println(letters, digits, others)
fmt.Println(strings.ToUpper(s), utf8.RuneCountInString(s), len(s))
