package main

import (
	"errors"
	"fmt"
	"sync"
)

type Account struct {
	mu      sync.Mutex
	balance int
}

var ErrInsufficient = errors.New("insufficient funds")

func (a *Account) Deposit(n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.balance += n
}

func (a *Account) Withdraw(n int) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if n > a.balance {
		return ErrInsufficient
	}
	a.balance -= n
	return nil
}

func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}

func main() {
	acc := &Account{}
	var wg sync.WaitGroup
	for i := 1; i <= 50; i++ {
		wg.Add(1)
		go func(n int) {
			defer wg.Done()
			acc.Deposit(n)
		}(i)
	}
	wg.Wait()
	fmt.Println("balance:", acc.Balance())
	if err := acc.Withdraw(5000); err != nil {
		fmt.Println("withdraw failed:", err)
	}
	if err := acc.Withdraw(275); err == nil {
		fmt.Println("withdrew 275, left", acc.Balance())
	}
}
