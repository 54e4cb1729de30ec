words := []string{"apple", "avocado", "banana", "blueberry", "cherry", "apricot"}
groups := make(map[byte][]string)
for _, w := range words {
	groups[w[0]] = append(groups[w[0]], w)
}
fmt.Println(groups)
fmt.Println(len(groups['a']), groups['z'] == nil)
