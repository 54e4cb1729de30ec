sentence := "The quick brown fox jumps over the lazy dog"
words := strings.Fields(sentence)
longest := ""
for _, w := range words {
	if len(w) > len(longest) {
		longest = w
	}
}
letters := map[rune]bool{}
for _, r := range strings.ToLower(sentence) {
	if unicode.IsLetter(r) {
		letters[r] = true
	}
}
fmt.Printf("words=%d longest=%q pangram=%v\n", len(words), longest, len(letters) == 26)
fmt.Println(strings.Title(strings.ToLower(sentence)))
