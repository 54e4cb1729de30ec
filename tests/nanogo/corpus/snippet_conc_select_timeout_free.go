a := make(chan string, 1)
b := make(chan string, 1)
b <- "from b"
select {
case m := <-a:
	fmt.Println(m)
case m := <-b:
	fmt.Println(m)
}
select {
case m := <-a:
	fmt.Println(m)
default:
	fmt.Println("nothing ready")
}
