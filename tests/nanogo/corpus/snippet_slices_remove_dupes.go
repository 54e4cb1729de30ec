items := []string{"a", "b", "a", "c", "b", "d"}
seen := map[string]bool{}
unique := []string{}
for _, it := range items {
	if !seen[it] {
		seen[it] = true
		unique = append(unique, it)
	}
}
fmt.Println(unique)
fmt.Println(len(seen))
