input := "hello world"
counts := make(map[rune]int)
for _, c := range input {
	counts[c]++
}
keys := make([]rune, 0, len(counts))
for k := range counts {
	keys = append(keys, k)
}
sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
for _, k := range keys {
	fmt.Printf("'%c': %d\n", k, counts[k])
}
