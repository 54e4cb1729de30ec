s := "The Quick Brown Fox"
fmt.Println(strings.ToLower(s))
fmt.Println(strings.ToUpper(s))
fmt.Println(strings.Fields(s))
fmt.Println(strings.Contains(s, "Brown"))
fmt.Println(strings.Replace(s, "Quick", "Slow", 1))
fmt.Println(len(s), strings.Count(s, "o"))
words := strings.Split(s, " ")
for i, w := range words {
	fmt.Printf("%d: %s\n", i, w)
}
