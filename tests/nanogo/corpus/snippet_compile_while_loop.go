i := 0
while i < 3 {
	fmt.Println(i)
	i++
}
