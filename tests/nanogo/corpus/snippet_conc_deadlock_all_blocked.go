var mu sync.Mutex
mu.Lock()
fmt.Println("locked once")
mu.Lock()
fmt.Println("never printed")
