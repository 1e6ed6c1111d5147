package azure_test

import (
	"net/http"
	"testing"

	"go.uber.org/goleak"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/llm/llmtest"
	"github.com/nb-cli/nb/internal/llm/openai/azure"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestAzureConformance(t *testing.T) {
	llmtest.RunProviderSuite(t, llmtest.NewOpenAI, func(t testing.TB, s *llmtest.Server, c *http.Client) llm.Provider {
		return azure.New(azure.Config{Endpoint: s.Root(), Deployment: "my-gpt", APIKey: "azkey", HTTPClient: c})
	}, llmtest.SuiteOptions{Model: "my-gpt"})
}
