s := "naïve café 日本"
fmt.Println("bytes:", len(s))
fmt.Println("runes:", utf8.RuneCountInString(s))
fmt.Println("runes via slice:", len([]rune(s)))
for i, r := range "日本" {
	fmt.Printf("byte %d: %c %U\n", i, r, r)
}
fmt.Println(s[0:2], string(s[2]), s[len(s)-3:])
