text := "Programming in Go is delightful"
vowels := 0
consonants := 0
for _, ch := range strings.ToLower(text) {
	switch ch {
	case 'a', 'e', 'i', 'o', 'u':
		vowels++
	case ' ':
	default:
		consonants++
	}
}
fmt.Printf("vowels=%d consonants=%d\n", vowels, consonants)
