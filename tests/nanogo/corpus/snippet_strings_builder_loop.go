var sb strings.Builder
for i := 1; i <= 5; i++ {
	if i > 1 {
		sb.WriteString(", ")
	}
	sb.WriteString(strconv.Itoa(i * i))
}
fmt.Println("Squares:", sb.String())
fmt.Println(sb.Len())
