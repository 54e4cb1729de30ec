text := `It was the best of times, it was the worst of times,
it was the age of wisdom, it was the age of foolishness`
words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
	return !unicode.IsLetter(r)
})
freq := make(map[string]int)
for _, w := range words {
	freq[w]++
}
type kv struct {
	Word  string
	Count int
}
var sorted []kv
for w, c := range freq {
	sorted = append(sorted, kv{w, c})
}
sort.Slice(sorted, func(i, j int) bool {
	if sorted[i].Count != sorted[j].Count {
		return sorted[i].Count > sorted[j].Count
	}
	return sorted[i].Word < sorted[j].Word
})
for _, e := range sorted[:5] {
	fmt.Printf("%-8s %d\n", e.Word, e.Count)
}
