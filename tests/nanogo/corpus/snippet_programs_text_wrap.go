text := "Go is an open source programming language supported by Google. It is easy to learn and great for teams, with built-in concurrency and a robust standard library."
width := 30
var lines []string
line := ""
for _, w := range strings.Fields(text) {
	if line == "" {
		line = w
	} else if len(line)+1+len(w) <= width {
		line += " " + w
	} else {
		lines = append(lines, line)
		line = w
	}
}
if line != "" {
	lines = append(lines, line)
}
for i, l := range lines {
	fmt.Printf("%2d |%-30s|\n", i+1, l)
}
