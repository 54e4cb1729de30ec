total := 0
for i := 0; i < 5; i++ {
	total += i
}
fmt.Println(totl)
