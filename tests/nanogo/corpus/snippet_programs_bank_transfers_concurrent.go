type Bank struct {
	mu       sync.Mutex
	accounts map[string]int
}

func (b *Bank) Transfer(from, to string, amt int) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.accounts[from] < amt {
		return false
	}
	b.accounts[from] -= amt
	b.accounts[to] += amt
	return true
}

bank := &Bank{accounts: map[string]int{"alice": 1000, "bob": 1000, "carol": 1000}}
names := []string{"alice", "bob", "carol"}
var wg sync.WaitGroup
for i := 0; i < 300; i++ {
	wg.Add(1)
	go func(i int) {
		defer wg.Done()
		bank.Transfer(names[i%3], names[(i+1)%3], 10)
	}(i)
}
wg.Wait()
total := 0
for _, n := range names {
	total += bank.accounts[n]
}
fmt.Println("total money:", total)
fmt.Println(bank.accounts)
