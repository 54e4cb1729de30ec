var ch chan string
fmt.Println("receiving from nil channel")
msg := <-ch
fmt.Println(msg)
