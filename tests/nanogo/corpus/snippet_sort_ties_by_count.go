text := "b a c b a d e a c f g b"
counts := map[string]int{}
for _, w := range strings.Fields(text) {
	counts[w]++
}
words := make([]string, 0, len(counts))
for w := range counts {
	words = append(words, w)
}
sort.Strings(words)
sort.Slice(words, func(i, j int) bool { return counts[words[i]] > counts[words[j]] })
for _, w := range words {
	fmt.Print(w, "=", counts[w], " ")
}
fmt.Println()
