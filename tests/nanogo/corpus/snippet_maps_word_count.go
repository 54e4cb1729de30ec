text := "one two three two three three"
counts := map[string]int{}
for _, w := range strings.Fields(text) {
	counts[w]++
}
fmt.Println(counts)
keys := make([]string, 0, len(counts))
for k := range counts {
	keys = append(keys, k)
}
sort.Strings(keys)
for _, k := range keys {
	fmt.Println(k, counts[k])
}
