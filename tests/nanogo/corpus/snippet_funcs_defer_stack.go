fmt.Println("counting")
for i := 0; i < 4; i++ {
	defer fmt.Println(i)
}
fmt.Println("done")
