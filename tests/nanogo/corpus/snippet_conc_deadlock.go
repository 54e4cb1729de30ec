ch := make(chan int)
ch <- 42
fmt.Println(<-ch)
