title := func(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + strings.ToLower(w[1:])
	}
	return strings.Join(words, " ")
}
fmt.Println(title("hELLO wORLD from gO"))
fmt.Println(strings.Repeat("-", 20))
fmt.Printf("|%-10s|%10s|\n", "left", "right")
